/**
 * The answers to "already scheduled" (move-flow.ts): Move it, Keep both, Cancel. Each replaces the question
 * (an `update`): the question is answered once. The value is the schedule as asked, with the request id
 * minted for the question, so a second click of Move or Keep both sends the same key and never doubles.
 */
import type { Response } from '../../cards.js';
import type { ActionSpec } from '../../command-spec.js';
import { type CommandContext, userError } from '../../context.js';
import { decodeSchedule } from '../../publishing/action-state.js';
import { SCHEDULE_CHOICE } from '../../publishing/move-flow.js';
import { runSchedule } from '../../publishing/schedule-flow.js';

async function answer(ctx: CommandContext, value: string, choice: 'move' | 'keep'): Promise<Response> {
  const pending = decodeSchedule(value.split('|'));
  if (!pending?.requestId) throw userError('bad-button');
  const response = await runSchedule(ctx, { ...pending, choice });
  return response.kind === 'message' ? { kind: 'update', card: response.card } : response;
}

export const scheduleMoveAction: ActionSpec = {
  action: SCHEDULE_CHOICE.move,
  run: (ctx, value) => answer(ctx, value, 'move'),
};

export const scheduleKeepAction: ActionSpec = {
  action: SCHEDULE_CHOICE.keep,
  run: (ctx, value) => answer(ctx, value, 'keep'),
};

export const scheduleCancelAction: ActionSpec = {
  action: SCHEDULE_CHOICE.cancel,
  async run(): Promise<Response> {
    return {
      kind: 'update',
      card: {
        title: 'Nothing changed',
        tone: 'neutral',
        text: 'The posts already scheduled stay as they are, and nothing new was scheduled.',
      },
    };
  },
};
