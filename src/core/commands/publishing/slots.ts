/**
 * `slots [--platform P]` (GET /calendar): the publishing queue (DESIGN §10) as a table — each platform's slots,
 * its daily cap and its next free slots, a slot being free when no post of the same account is within 30
 * minutes of it (the calendar's posts and the active series' times) and its day is under the cap.
 */
import { defineCommand } from '../../parse/command-spec.js';
import { platformName } from '../../platforms/post-blocks.js';
import { describeSlots, nextFreeSlot, type Occupancy, SLOTS_EXAMPLE } from '../../publishing/slots.js';
import { queueHere, readQueues } from '../../publishing/slots-queue.js';
import { type Card, message } from '../../text/cards.js';
import type { TableCell } from '../../text/table.js';
import { command, joinText, literal, md } from '../../text/text.js';
import { formatListTime } from '../../time/format.js';
import { PLATFORMS, type Platform } from '../../video-api/video-api.js';

/** Next free slots shown per platform. */
const SHOWN = 3;

export const slotsCommand = defineCommand({
  name: 'slots',
  summary: 'Queue slots, next free ones',
  options: [{ name: 'platform', kind: 'platform', description: 'Only this platform', advanced: true }],
  examples: ['slots', 'slots --platform youtube'],
  details: md`Slots are set per platform by an admin: ${command('settings', ['slots', 'youtube', SLOTS_EXAMPLE])} (\`--here\` for this channel’s own). A slot is free when no post of the same account is within 30 minutes of it and its day is under the platform’s daily cap (${command('settings', ['daily-cap', 'youtube', '2'])}); scheduled posts and active series count. ${command('schedule', ['last', 'youtube', 'next'])} takes the next free one.`,
  async run(ctx, args) {
    const queue = await queueHere(ctx);
    const set = (p: Platform) => queue.slots[p] !== undefined || queue.dailyCaps[p] !== undefined;
    const platforms = args.platform ? [args.platform] : PLATFORMS.filter(set);
    if (platforms.length === 0 || !platforms.some(set)) {
      const where = args.platform ? platformName(args.platform) : md`any platform`;
      return message({
        title: md`No queue slots`,
        tone: 'info',
        text: md`There are no queue slots for ${where} yet. An admin sets them with ${command('settings', ['slots', args.platform ?? 'youtube', SLOTS_EXAMPLE])}; then ${command('schedule', ['last', args.platform ?? 'youtube', 'next'])} takes the next free one.`,
      });
    }
    const zone = await ctx.timeZone();
    const now = ctx.now();
    const rows: TableCell[][] = (await readQueues(ctx, { platforms })).map(
      ({ platform, rule, occupancy }) => [
        platformName(platform),
        rule ? literal(describeSlots(rule)) : md`none`,
        queue.dailyCaps[platform] !== undefined ? literal(`${queue.dailyCaps[platform]} a day`) : md`none`,
        rule
          ? joinText(
              freeSlots(rule, occupancy, now).map((t) => formatListTime(t, zone, now)),
              ', ',
            )
          : md`—`,
      ],
    );
    const card: Card = {
      title: md`Queue slots`,
      tone: 'info',
      table: {
        caption: 'Queue slots',
        columns: [{ label: 'Platform' }, { label: 'Slots' }, { label: 'Daily cap' }, { label: 'Next free' }],
        rows,
      },
      context: md`Next free times in ${literal(zone)}. Taken: posts on the calendar and active series’ times, per platform’s default account.`,
    };
    return message(card);
  },
});

/** The first `SHOWN` free slots, each counted as taken for the next. */
function freeSlots(rule: Parameters<typeof nextFreeSlot>[0], occupancy: Occupancy, now: number): number[] {
  const out: number[] = [];
  let after = now;
  const taken = [...occupancy.taken];
  for (let i = 0; i < SHOWN; i++) {
    const at = nextFreeSlot(rule, { ...occupancy, taken }, after);
    if (at === undefined) break;
    out.push(at);
    taken.push(at);
    after = at;
  }
  return out;
}
