/** Shared set-up for the series end-to-end tests: the harness plus a record of interactive API calls. */
import type { Response } from '../../../src/core/text/cards.js';
import type { VideoApi } from '../../../src/core/video-api/video-api.js';
import { spyOnHarness } from '../../support/api-spy.js';
import { createHarness, DEMO_KEY, type Harness, type HarnessOptions } from '../../support/harness.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Calls that change something on the service; validation failures must make none of them. */
export const MUTATIONS = ['series.create', 'series.update', 'series.delete', 'series.generate'];

export interface SeriesHarness extends Harness {
  /** `group.method` of every call made by commands and clicks (the poller's own calls are not included). */
  calls: string[];
  /** A client with the demo key, for checking the service's side. */
  api: VideoApi;
}

export async function seriesHarness(options: HarnessOptions = {}): Promise<SeriesHarness> {
  const h = await createHarness(options);
  const calls: string[] = [];
  const original = spyOnHarness(h, { before: (call) => calls.push(call.name) });
  return Object.assign(h, { calls, api: original(DEMO_KEY) });
}

export const mutations = (h: SeriesHarness): string[] => h.calls.filter((c) => MUTATIONS.includes(c));

export function card(response: Response) {
  if (response.kind !== 'message' && response.kind !== 'update') {
    throw new Error(`expected a card, got ${response.kind}: ${JSON.stringify(response)}`);
  }
  return response.card;
}

/** The series id from a card's context line (`id \`…\``). */
export function idFrom(response: Response): string {
  const m = /(?:id|series) `([^`]+)`/.exec(card(response).context ?? '');
  if (!m?.[1]) throw new Error(`no id in ${JSON.stringify(card(response))}`);
  return m[1];
}

/** A button of a card by action. */
export function button(response: Response, action: string) {
  const c = card(response);
  const controls = [...(c.controls ?? []), ...(c.sections ?? []).flatMap((s) => s.controls ?? [])];
  const found = controls.find((x) => x.kind === 'button' && x.action === action);
  if (found?.kind !== 'button') throw new Error(`no ${action} button in ${JSON.stringify(c)}`);
  return found;
}

export const hasButton = (response: Response, action: string): boolean => {
  try {
    button(response, action);
    return true;
  } catch {
    return false;
  }
};

/** Video status cards posted in the channel (one per video). */
export const videoCards = (h: Harness) =>
  h.chat.channelMessages.filter((p) => /id `[^`]+`/.test(p.card.context ?? '') && p.card.progress);

/** The Confirm button of a series spend's cost card (create, resume or a model change). */
export function confirmButton(response: Response) {
  const c = card(response);
  const found = (c.controls ?? []).find(
    (x) => x.kind === 'button' && /^series\.(create|resume|edit)\.confirm$/.test(x.action),
  );
  if (found?.kind !== 'button') throw new Error(`no confirm button in ${JSON.stringify(c)}`);
  return found;
}

/** Runs a command that spends and presses Confirm on its cost card: the outcome, as before cost cards. */
export async function confirmed(
  h: Harness,
  asked: Response | Promise<Response>,
  as?: Parameters<Harness['click']>[2],
): Promise<Response> {
  const b = confirmButton(await asked);
  return h.click(b.action, b.value, as);
}
