/**
 * The answers to a clash or daily-cap warning (slots-flow.ts): Use the next free slot, Schedule anyway, Cancel.
 * The warning is a one-shot card of its own (its id: the request id minted for it, marked apart from a Move /
 * Keep both question that may have come first with the same request), so each is chosen once, explicitly.
 */
import { type CommandContext, userError } from '../../dispatch/context.js';
import { oneShot } from '../../dispatch/one-shot.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { decodeSchedule, type PendingSchedule } from '../../publishing/action-state.js';
import { runSchedule } from '../../publishing/schedule-flow.js';
import { SLOT_CHOICE } from '../../publishing/slots-flow.js';
import type { Response } from '../../text/cards.js';
import { md } from '../../text/text.js';

const warningOf = (value: string): string | undefined => {
  const id = decodeSchedule(value.split('|'))?.requestId;
  return id ? `${id}:slot-warning` : undefined;
};

async function answer(ctx: CommandContext, value: string, as: Partial<PendingSchedule>): Promise<Response> {
  const pending = decodeSchedule(value.split('|'));
  if (!pending?.requestId) throw userError('bad-button');
  const response = await runSchedule(ctx, { ...pending, ...as });
  return response.kind === 'message' ? { kind: 'update', card: response.card } : response;
}

export const slotNextAction: ActionSpec = oneShot({
  action: SLOT_CHOICE.next,
  card: warningOf,
  run: (ctx, value) => answer(ctx, value, { next: true }),
});

export const slotAnywayAction: ActionSpec = oneShot({
  action: SLOT_CHOICE.anyway,
  card: warningOf,
  run: (ctx, value) => answer(ctx, value, { confirmed: true }),
});

export const slotCancelAction: ActionSpec = oneShot({
  action: SLOT_CHOICE.cancel,
  card: warningOf,
  run(): Response {
    return {
      kind: 'update',
      card: {
        title: md`Nothing scheduled`,
        tone: 'neutral',
        text: md`The warning was refused: nothing was sent.`,
      },
    };
  },
});
