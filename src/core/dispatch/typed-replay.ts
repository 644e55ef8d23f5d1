/**
 * Honest replays. A typed command repeated within `TYPED_RETRY_WINDOW_MS` keeps the first one's
 * idempotency key, so a retry after a lost answer never posts or charges twice (request-id.ts). When the
 * first one's write already went through, the member is told so instead of getting a silent copy of the
 * answer: "Already published at 10:02 (same command, 3 minutes ago) — Publish again?", in their zone, with a
 * "Publish again" button that runs the same command as a deliberate new action (a new key). The button's
 * click is an action like any other: it runs as the clicker, with the clicker's key and role checks.
 */

import type { ActionSpec, RawArgs } from '../parse/command-spec.js';
import { type Card, message, type Response } from '../text/cards.js';
import { say } from '../text/messages.js';
import { md } from '../text/text.js';
import { formatTime } from '../time/format.js';
import { type CommandContext, userError } from './context.js';
import { oneShot } from './one-shot.js';
import { isRequestId, newRequestId, runsAgain, TYPED_RETRY_WINDOW_MS, TypedReplay } from './request-id.js';

/** The action of the "… again" button. */
export const TYPED_AGAIN_ACTION = 'typed.again';

/** What each replayable action did, and its button. */
const WORDS: Record<string, { done: string; again: string }> = {
  publish: { done: 'published', again: 'Publish again' },
  // Not "scheduled at 01:00": that would read as the post's time.
  schedule: { done: 'sent this schedule', again: 'Schedule again' },
  reschedule: { done: 'moved this schedule', again: 'Move again' },
  'series.create': { done: 'started this series', again: 'Start it again' },
  caption: { done: 'captioned', again: 'Caption again' },
  render: { done: 'rendered', again: 'Render again' },
  asset: { done: 'registered this asset', again: 'Register again' },
};
const FALLBACK = { done: 'done', again: 'Run it again' };

/** The command to run again, kept as the card's state under the button's request id. */
const stateKey = (id: string): string => `typed-again:${id}`;

/** The answer to a replayed typed command `c` with arguments `a`. */
async function replayAnswer(
  ctx: CommandContext,
  { replay, command }: { replay: TypedReplay; command: { c: string; a: RawArgs } },
): Promise<Response> {
  const zone = await ctx.timeZone();
  const words = WORDS[replay.action] ?? FALLBACK;
  const id = newRequestId();
  await ctx.deps.store.cardStates.put(stateKey(id), { c: command.c, a: command.a, user: ctx.req.user });
  const card: Card = {
    title: md`Already done`,
    tone: 'info',
    text: say('typed-replay', {
      what: words.done,
      when: formatTime(replay.doneAt, zone),
      minutes: Math.max(0, Math.floor((ctx.now() - replay.doneAt) / 60_000)),
      title: words.again,
    }),
    controls: [
      { kind: 'button', action: TYPED_AGAIN_ACTION, value: id, label: words.again, style: 'primary' },
    ],
    context: say('typed-replay-note', { minutes: TYPED_RETRY_WINDOW_MS / 60_000 }),
  };
  return message(card);
}

/** Runs a typed command; when it is a replay of one that went through, answers so (see the file comment). */
export async function answeringReplays(
  ctx: CommandContext,
  command: { c: string; a: RawArgs },
  run: () => Promise<Response> | Response,
): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TypedReplay) return await replayAnswer(ctx, { replay: error, command });
    throw error;
  }
}

const isRawArgs = (v: unknown): v is RawArgs => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "Publish again": the stored command, run again by the clicker as a new action. */
export const typedAgainAction: ActionSpec = oneShot({
  action: TYPED_AGAIN_ACTION,
  // The question is answered once (one-shot.ts): a second click hears who ran it again, and when.
  card: (value) => (isRequestId(value) ? stateKey(value) : undefined),
  async run(ctx, value) {
    const stored = isRequestId(value) ? await ctx.deps.store.cardStates.get(stateKey(value)) : undefined;
    const bot = ctx.deps.dispatcher?.();
    if (!stored || typeof stored.c !== 'string' || !isRawArgs(stored.a) || !bot) {
      throw userError('interaction-expired');
    }
    // A new request (not the clicked message's), marked so its key is new: the same for a second click.
    const { message: _clicked, ...fresh } = ctx.req;
    runsAgain(fresh, value);
    return await bot.handleCommand(fresh, stored.c, stored.a);
  },
});
