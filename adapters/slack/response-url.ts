import type { Clock } from '../../src/core/index.js';
import { abortAfter } from '../../src/core/index.js';

/** A response_url that does not answer in time is given up (the caller logs it). */
const RESPONSE_URL_TIMEOUT_MS = 10_000;

/** Posts to an interaction's `response_url`; a non-2xx answer is an error. */
export async function postToResponseUrl(
  clock: Clock,
  url: string,
  body: Record<string, unknown>,
): Promise<void> {
  const timeout = abortAfter(clock, RESPONSE_URL_TIMEOUT_MS);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
      signal: timeout.signal,
    });
    if (!res.ok) throw new Error(`response_url answered ${res.status}`);
    await res.body?.cancel();
  } finally {
    timeout.clear();
  }
}
