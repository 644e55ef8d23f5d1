import { randomUUID } from 'node:crypto';
import type { CommandSpec } from '../parse/command-spec.js';
import type { Logger } from '../ports/index.js';
import type { Response } from '../text/cards.js';
import { isInputMistake, say } from '../text/messages.js';
import { describeApiError, isApiError } from '../video-api/api-errors.js';
import { type CoreDeps, UserError } from './context.js';
import { isDatabaseBusy } from './database-busy.js';
import { errorCard } from './error-card.js';

/** One failed handler run, as the dispatcher saw it. */
export interface Failure {
  /** The command, `action:…` or `form:…` that ran (metrics and logs). */
  label: string;
  error: unknown;
  /** The command that ran, for usage and an example under an input mistake. */
  spec?: CommandSpec | undefined;
  user: string;
  /** Whether a call that changes something at the video service was sent before the failure. */
  afterWrite: boolean;
  /**
   * What the log shows of the error instead of the error itself, when it may carry a secret (a platform
   * library's error holding a URL with a token): the adapter's redacted form.
   */
  logged?: unknown;
}

/**
 * The dispatcher's words for a failure: user mistakes via the message table, API errors via
 * `describeApiError`, anything else logged once with a reference the member can quote. Adapters answer a
 * failure of their own (rendering, a refused platform call) with it too, so every reference is minted here.
 */
export function failureReply(
  { metrics, log }: { metrics: CoreDeps['metrics']; log: Logger },
  { label, error, spec, user, afterWrite, logged = error }: Failure,
): Response {
  if (error instanceof UserError) {
    metrics?.command(label, 'user_error');
    // Input mistakes found inside a command still get usage and an example; others (not found…) don't.
    return errorCard(say(error.code, error.params), isInputMistake(error.code) ? spec : undefined);
  }
  if (isApiError(error)) {
    metrics?.command(label, 'api_error');
    log.warn(
      { command: label, errorType: error.type, status: error.status, requestId: error.details.requestId },
      'video API error',
    );
    return errorCard(describeApiError(error));
  }
  const ref = randomUUID().slice(0, 8);
  metrics?.command(label, 'error');
  if (isDatabaseBusy(error) && !afterWrite) {
    log.warn({ command: label, ref, code: (error as { code?: string }).code }, 'database locked; gave up');
    return errorCard(say('database-busy', { ref }));
  }
  log.error({ command: label, ref, err: logged, user }, 'unexpected failure');
  // After a remote write "nothing was half-done" may be false: say what is known.
  return errorCard(say(afterWrite ? 'internal-after-write' : 'internal', { ref }));
}
