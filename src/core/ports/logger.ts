/**
 * The logging ports: the structured logger every part writes to, and the mask that keeps secrets out of its
 * lines. Implemented in `src/observability/logger.ts`.
 */

/** The structured logger (pino-compatible subset). Never pass an API key, token or secret. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: object): Logger;
}

/** Secrets the logs mask by value, whatever their shape (`src/observability/logger.ts`). */
export interface LogMask {
  /** Masks `secret` in every log line from now on: a key the video service accepted. */
  accept(secret: string): void;
  /** Stops masking an accepted `secret` (its link was removed); the deployment's own secrets stay masked. */
  forget(secret: string): void;
  /** Runs `work` with `secret` masked in the log lines written while it runs, and nowhere else. */
  within<T>(secret: string, work: () => Promise<T>): Promise<T>;
}
