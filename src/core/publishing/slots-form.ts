/**
 * `next` where a schedule's time is asked: typed (`schedule … next`, `reschedule … next`) and in the Schedule
 * form, which offers "Next free slot (Tue 09:00)" first when the platforms have queue slots.
 */
import type { CommandContext } from '../dispatch/context.js';
import { parsePlatforms } from '../parse/validate-args.js';
import type { SelectInput } from '../text/cards.js';
import { VideoApiError } from '../video-api/video-api.js';
import { nextFreeSlot, slotLabel } from './slots.js';
import { queueHere, readQueues } from './slots-queue.js';

/** The Schedule form's choice between the next free slot and the time typed below it. */
export const SLOT_INPUT = 'slot';

/** `next`, `next slot`, `next free slot`: the queue's next free slot rather than a time. */
export const isNextSlot = (when: unknown): boolean =>
  typeof when === 'string' && /^next(\s+free)?(\s+slot)?$/i.test(when.trim());

/** The form's slot choice, when one of `platforms` (as the form prefills them) has slots; else nothing. */
export async function nextSlotInputs(
  ctx: CommandContext,
  platforms: string | undefined,
): Promise<SelectInput[]> {
  const parsed = platforms ? parsePlatforms(platforms) : undefined;
  if (!parsed?.ok) return [];
  const queue = await queueHere(ctx);
  const withSlots = parsed.value.filter((p) => queue.slots[p] !== undefined);
  if (withSlots.length === 0) return [];
  let when = '';
  try {
    const zone = await ctx.timeZone();
    const nexts = (await readQueues(ctx, { platforms: withSlots }))
      .map((q) => (q.rule ? nextFreeSlot(q.rule, q.occupancy, ctx.now()) : undefined))
      .filter((t): t is number => t !== undefined);
    if (nexts.length > 0) when = ` (${slotLabel(Math.min(...nexts), zone)})`;
  } catch (error) {
    // The calendar unread: the choice is still offered, its time found when the form is sent.
    if (!(error instanceof VideoApiError)) throw error;
  }
  return [
    {
      kind: 'select',
      id: SLOT_INPUT,
      label: 'Slot',
      placeholder: 'Pick one',
      options: [
        { label: `Next free slot${when}`, value: 'next' },
        { label: 'At the time below', value: 'time' },
      ],
      initial: 'next',
      hint: 'Each platform takes its own next free queue slot; a time typed below wins.',
    },
  ];
}
