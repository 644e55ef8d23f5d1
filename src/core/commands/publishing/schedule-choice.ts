/**
 * The answers to "already scheduled" (move-flow.ts): Move it, Keep both, Cancel. The question is a one-shot
 * card (`one-shot.ts`), its id the request id minted for it: the first answer replaces it, any later click on
 * it hears who answered and when. The value is the schedule as asked, so even a click racing the first sends
 * the same key and never doubles.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { oneShot } from '../../dispatch/one-shot.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { decodeSchedule } from '../../publishing/action-state.js';
import { SCHEDULE_CHOICE } from '../../publishing/move-flow.js';
import { runSchedule } from '../../publishing/schedule-flow.js';
import type { Response } from '../../text/cards.js';
import { md } from '../../text/text.js';

/** Every answer of one question names the same card: the request id minted for the question. */
const questionOf = (value: string): string | undefined => decodeSchedule(value.split('|'))?.requestId;

async function answer(ctx: CommandContext, value: string, choice: 'move' | 'keep'): Promise<Response> {
  const pending = decodeSchedule(value.split('|'));
  if (!pending?.requestId) throw userError('bad-button');
  const response = await runSchedule(ctx, { ...pending, choice });
  return response.kind === 'message' ? { kind: 'update', card: response.card } : response;
}

export const scheduleMoveAction: ActionSpec = oneShot({
  action: SCHEDULE_CHOICE.move,
  card: questionOf,
  run: (ctx, value) => answer(ctx, value, 'move'),
});

export const scheduleKeepAction: ActionSpec = oneShot({
  action: SCHEDULE_CHOICE.keep,
  card: questionOf,
  run: (ctx, value) => answer(ctx, value, 'keep'),
});

export const scheduleCancelAction: ActionSpec = oneShot({
  action: SCHEDULE_CHOICE.cancel,
  card: questionOf,
  run(): Response {
    return {
      kind: 'update',
      card: {
        title: md`Nothing changed`,
        tone: 'neutral',
        text: md`The posts already scheduled stay as they are, and nothing new was scheduled.`,
      },
    };
  },
});
