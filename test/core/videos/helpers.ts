/**
 * Shared set-up for the video command tests: the end-to-end harness (real simulator over HTTP, real client,
 * SQLite, poller, outbox, fake chat) plus a record of every API call commands and clicks make, so a test can
 * prove that bad input sent nothing.
 */
import type { Card, Control, Response } from '../../../src/core/text/cards.js';
import type { VideoApi } from '../../../src/core/video-api/video-api.js';
import { spyOnHarness } from '../../support/api-spy.js';
import type { PostedMessage } from '../../support/fake-chat.js';
import { createHarness, DEMO_KEY, type Harness, type HarnessOptions } from '../../support/harness.js';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

export interface Call {
  name: string;
  args: unknown[];
}

export interface VideosHarness extends Harness {
  /** Calls made by commands and clicks (not the poller's: it builds its clients from the original factory). */
  calls: Call[];
  /** A client with the demo key, for checking the service's side. */
  api: VideoApi;
}

/** Calls that change something on the service. */
const WRITES = new Set([
  'videos.create',
  'videos.caption',
  'videos.update',
  'videos.delete',
  'videos.selectThumbnail',
  'videos.render',
]);

export async function videosHarness(options: HarnessOptions = {}): Promise<VideosHarness> {
  const h = await createHarness(options);
  const calls: Call[] = [];
  const original = spyOnHarness(h, { before: (call) => calls.push(call) });
  return Object.assign(h, { calls, api: original(DEMO_KEY) });
}

/** The key of a second team of the simulator ("Other Team"), for checks that one team cannot see another's. */
export const OTHER_KEY = 'fl_live_other_team_key_0123456789abcdef';

/** A videos harness whose simulator also has "Other Team" (key `OTHER_KEY`). */
export const twoTeamsHarness = (profile: 'spec' | 'real' = 'spec'): Promise<VideosHarness> =>
  videosHarness({ simulator: { profile }, teams: [{ name: 'Other Team', keys: [{ key: OTHER_KEY }] }] });

export const writes = (h: VideosHarness): string[] => h.calls.map((c) => c.name).filter((n) => WRITES.has(n));

export function card(response: Response): Card {
  if (response.kind !== 'message' && response.kind !== 'update') {
    throw new Error(`expected a card, got ${response.kind}: ${JSON.stringify(response)}`);
  }
  return response.card;
}

/** Every button of a card, sections included. */
export function buttons(c: Card): Extract<Control, { kind: 'button' }>[] {
  return [...(c.controls ?? []), ...(c.sections ?? []).flatMap((s) => s.controls ?? [])].filter(
    (x): x is Extract<Control, { kind: 'button' }> => x.kind === 'button',
  );
}

export function button(c: Card, action: string, label?: string | RegExp) {
  const found = buttons(c).find(
    (b) =>
      b.action === action &&
      (label === undefined || (typeof label === 'string' ? b.label === label : label.test(b.label))),
  );
  if (!found) throw new Error(`no ${action} button in ${JSON.stringify(c)}`);
  return found;
}

/** The video id from a card's context line (`id \`…\``). */
export function idFrom(c: Card): string {
  const m = /id `([^`]+)`/.exec(c.context ?? '');
  if (!m?.[1]) throw new Error(`no id in ${JSON.stringify(c)}`);
  return m[1];
}

/** The live status card of a video in the chat (top-level messages whose footer names the id). */
export function liveCards(h: Harness, videoId: string): PostedMessage[] {
  return h.chat.channelMessages.filter((p) => p.card.context?.includes(`id \`${videoId}\``));
}

export function liveCard(h: Harness, videoId: string): PostedMessage {
  const cards = liveCards(h, videoId);
  if (cards.length !== 1) throw new Error(`expected one live card for ${videoId}, got ${cards.length}`);
  return cards[0] as PostedMessage;
}

let made = 0;

/** Creates a video straight through the API (test set-up), optionally waiting until it completes. */
export async function apiVideo(
  h: VideosHarness,
  name: string,
  options: { complete?: boolean; model?: 'storyboard' | 'motion_lite' | 'motion_pro' } = {},
): Promise<string> {
  const created = await h.api.videos.create(
    {
      script: `A short script about ${name}, long enough to pass.`,
      voiceId: 'voice_aria_en',
      name,
      ...(options.model ? { model: options.model } : {}),
    },
    { idempotencyKey: `test-create-${++made}-${name}` },
  );
  if (options.complete) await completeVideo(h, created.id);
  return created.id;
}

/** Moves the simulator's time (not the poller) until a video completes and its thumbnails are settled. */
export async function completeVideo(h: VideosHarness, id: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const video = await h.api.videos.get(id);
    const t = video.thumbnails?.status;
    if (video.status === 'failed') throw new Error('generation failed in a test set-up');
    if (video.status === 'completed' && t !== 'queued' && t !== 'generating' && t !== 'idle') return;
    h.clock.advance(5 * SECOND);
  }
  throw new Error(`video ${id} never completed`);
}

/** Runs `create …`, presses Create, and returns the new video id. */
export async function createThroughChat(h: VideosHarness, text: string): Promise<string> {
  const confirm = card(await h.run(text));
  const pressed = card(await h.click('video.create.confirm', button(confirm, 'video.create.confirm').value));
  return idFrom(pressed);
}
