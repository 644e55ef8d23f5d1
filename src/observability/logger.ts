/**
 * Structured logs (pino). Secrets never reach a log line: known secret-bearing fields are redacted by
 * path, and any string that looks like an API key or platform token is masked by a serializer-free
 * formatter hook as a second line of defence.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Logger as PinoLogger, pino } from 'pino';
import type { Logger, LogMask } from '../core/ports/index.js';

const REDACT_PATHS = [
  'apiKey',
  'key',
  'token',
  'secret',
  'authorization',
  'password',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.secret',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'config.SLACK_BOT_TOKEN',
  'config.SLACK_SIGNING_SECRET',
  'config.DISCORD_TOKEN',
  'config.VIDEO_API_KEY',
];

/** API keys (`fl_…`), Slack tokens (`xox…-`, `xapp-`) and bearer headers. */
const SECRET_PATTERN =
  /\b(fl_(?:live|test)_[A-Za-z0-9_]+|xox[abprs]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+|Bearer\s+\S+)/g;

/**
 * Secrets known by value, masked wherever they appear, whatever their shape (a real service's keys need not
 * look like `fl_live_…`): the deployment's own tokens for the process's life, team keys once the service
 * accepted them (until unlinked). A value not accepted yet (what a member typed into the link form) is
 * masked only in its own request's lines: masking it everywhere would let anyone erase chosen words from
 * every log.
 */
const configured = new Set<string>();
const accepted = new Set<string>();
const scoped = new AsyncLocalStorage<readonly string[]>();

/** Too short a value would mangle ordinary text. */
const maskable = (secret: string | undefined): secret is string => secret !== undefined && secret.length >= 8;

/** Masks one of the deployment's secrets (configuration) in every log line from now on. */
export function maskVerbatim(secret: string | undefined): void {
  if (maskable(secret)) configured.add(secret);
}

/** The process's log mask for keys (`LogMask` in the core's ports). */
export const logMask: LogMask = {
  accept(secret) {
    if (maskable(secret)) accepted.add(secret);
  },
  forget(secret) {
    accepted.delete(secret);
  },
  within(secret, work) {
    const outer = scoped.getStore() ?? [];
    return scoped.run(maskable(secret) ? [...outer, secret] : outer, work);
  },
};

export function maskSecrets(text: string): string {
  let out = text;
  for (const secrets of [configured, accepted, scoped.getStore() ?? []]) {
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  }
  return out.replace(SECRET_PATTERN, (m) => `${m.slice(0, 8)}…[redacted]`);
}

export function createLogger(
  options: { level?: string; destination?: NodeJS.WritableStream; name?: string } = {},
): Logger & PinoLogger {
  const destination = options.destination
    ? { write: (line: string) => options.destination?.write(maskSecrets(line)) }
    : { write: (line: string) => process.stdout.write(maskSecrets(line)) };
  return pino(
    {
      name: options.name ?? 'reelbot',
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
