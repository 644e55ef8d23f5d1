import { type Dispatcher, request } from 'undici';
import { errorMessage } from '../core/dispatch/describe-error.js';
import type { Clock } from '../core/ports/index.js';
import type { HttpMethod } from './routes.js';

/** The reason a finished request's timer is aborted with (nothing listens any more). */
const DONE = 'request finished';

/**
 * The largest response body read (bytes), counted while reading: a hostile or broken service, or anyone on
 * the path, could otherwise stream hundreds of MB into memory (and into the store). The API's largest
 * answers (a page of 100 videos, a voice catalog) are a few hundred KB.
 */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export interface SendInput {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
  dispatcher: Dispatcher | undefined;
  timeoutMs: number;
  clock: Clock;
  signal: AbortSignal | undefined;
  /** Default `MAX_RESPONSE_BYTES`. */
  maxResponseBytes?: number;
}

/** The outcome of one HTTP attempt. A caller's abort is thrown (its `reason`), not returned. */
export type SendResult =
  | { kind: 'response'; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: 'timeout' }
  | { kind: 'too-large'; status: number; limit: number }
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
    const limit = input.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    const declared = Number(response.headers['content-length']);
    if (declared > limit) {
      controller.abort(new Error('response too large'));
      return { kind: 'too-large', status: response.statusCode, limit };
    }
    const text = await readCapped(response.body, limit, controller);
    if (text === undefined) return { kind: 'too-large', status: response.statusCode, limit };
    return { kind: 'response', status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) return { kind: 'timeout' };
    const code = (error as { code?: unknown })?.code;
    return {
      kind: 'connection',
      code: typeof code === 'string' ? code : 'UNKNOWN',
      detail: errorMessage(error),
    };
  } finally {
    // With a reason: abort() without one builds a DOMException (and its stack) on every request.
    timer.abort(DONE);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The body as text, or undefined (and the request aborted) once it passes `limit` bytes. */
async function readCapped(
  body: AsyncIterable<Uint8Array>,
  limit: number,
  controller: AbortController,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      controller.abort(new Error('response too large'));
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
