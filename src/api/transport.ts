import { type Dispatcher, request } from 'undici';
import type { Clock } from '../core/ports.js';
import type { HttpMethod } from './routes.js';

/** The reason a finished request's timer is aborted with (nothing listens any more). */
const DONE = 'request finished';

export interface SendInput {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
  dispatcher: Dispatcher | undefined;
  timeoutMs: number;
  clock: Clock;
  signal: AbortSignal | undefined;
}

/** The outcome of one HTTP attempt. A caller's abort is thrown (its `reason`), not returned. */
export type SendResult =
  | { kind: 'response'; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: 'timeout' }
  | { kind: 'connection'; code: string; detail: string };

/**
 * Sends one request and reads the whole body, within `timeoutMs` (timed by the injected clock, so
 * tests control it). Knows nothing of retries, errors or the envelope.
 */
export async function send(input: SendInput): Promise<SendResult> {
  const { signal } = input;
  if (signal?.aborted) throw signal.reason;
  const controller = new AbortController();
  const timer = new AbortController();
  let timedOut = false;
  input.clock.sleep(input.timeoutMs, timer.signal).then(
    () => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    },
    () => {},
  );
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await request(input.url, {
      method: input.method,
      headers: input.headers,
      body: input.body ?? null,
      signal: controller.signal,
      ...(input.dispatcher ? { dispatcher: input.dispatcher } : {}),
    });
    const text = await response.body.text();
    return { kind: 'response', status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) return { kind: 'timeout' };
    const code = (error as { code?: unknown })?.code;
    return {
      kind: 'connection',
      code: typeof code === 'string' ? code : 'UNKNOWN',
      detail: error instanceof Error ? error.message : String(error),
    };
  } finally {
    // With a reason: abort() without one builds a DOMException (and its stack) on every request.
    timer.abort(DONE);
    signal?.removeEventListener('abort', onAbort);
  }
}
