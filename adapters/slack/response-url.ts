import { webApi } from '@slack/bolt';
import type { Clock } from '../../src/core/index.js';
import { abortAfter } from '../../src/core/index.js';

/** A response_url that does not answer in time is given up (the caller logs it). */
const RESPONSE_URL_TIMEOUT_MS = 10_000;

/**
 * Slack's refusal through a response_url (`{"ok": false, "error": "invalid_blocks", …}`), shaped as the Web API
 * client's platform error, so one reading of refusals (errors.ts) serves both ways of answering.
 */
function refusal(answer: { error?: unknown }): Error {
  return Object.assign(new Error(`response_url answered ${String(answer.error)}`), {
    code: webApi.ErrorCode.PlatformError,
    data: answer,
  });
}

/** The JSON object a response_url answered, if it answered one. */
function answerOf(text: string): { ok?: unknown; error?: unknown } | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Posts to an interaction's `response_url`; a non-2xx answer or one saying `ok: false` is an error. */
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
    const answer = answerOf(await res.text());
    if (answer?.ok === false) throw refusal(answer);
    if (!res.ok) throw new Error(`response_url answered ${res.status}`);
  } finally {
    timeout.clear();
  }
}
