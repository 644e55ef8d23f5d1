/**
 * `subscribe digest daily 09:00` and `subscribe digest weekly mon 09:00`: the channel gets a digest (DESIGN
 * §10) at that time in the channel's zone (its `tz` setting, else the caller's). The store row keeps the
 * schedule in its `filters`; a `digest` watch wakes at each time (src/core/digests). Subscribing again with
 * another time moves it; a period already sent is not sent again.
 */

import {
  describeDigest,
  digestTarget,
  nextDue,
  readDigestSchedule,
  scheduleFilters,
} from '../../digests/digest-schedule.js';
import { firstDigestState } from '../../digests/digest-watcher.js';
import type { CommandContext } from '../../dispatch/context.js';
import { refreshHomes } from '../../home/home-refresh.js';
import { formatMention } from '../../people/mentions.js';
import { subscriptionWatch, WHAT_IT_POSTS } from '../../settings/subscriptions.js';
import type { Response } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { command, literal, md } from '../../text/text.js';
import { formatBoth } from '../../time/format.js';

/** Subscriptions last until unsubscribed; the watch still needs an expiry, so it is far away. */
const SUBSCRIPTION_LIFETIME_MS = 100 * 365 * 24 * 3600_000;

export async function subscribeDigest(ctx: CommandContext, typed: string): Promise<Response> {
  const zone = (await ctx.settings()).timeZone ?? (await ctx.timeZoneToRead());
  const schedule = readDigestSchedule(typed, zone);
  // The digest is read with the caller's key (or the shared one): without any, say so now.
  await ctx.api();
  const store = ctx.deps.store;
  const conversation = ctx.req.conversation;
  const owner = await ctx.keyOwner();
  const sub = { kind: 'digest' as const, target: schedule.kind, conversation };
  const now = ctx.now();
  const first = firstDigestState(schedule, now);
  await store.transaction(async () => {
    const filters = scheduleFilters(schedule);
    if (!(await store.subscriptions.add({ ...sub, owner, filters })))
      await store.subscriptions.setFilters(sub, filters);
    await refreshHomes(store, {
      where: [conversation],
      cause: `subscribe:digest:${schedule.kind}:${conversation}:${now}`,
      now,
    });
    const watch = await subscriptionWatch(store, sub);
    // A new time keeps the readings taken so far (the weekly chart's days).
    if (watch)
      await store.watches.update(watch.id, {
        state: { ...watch.state, next: first.next },
        nextCheckAt: first.next,
      });
    else
      await store.watches.add({
        kind: 'digest',
        target: digestTarget(schedule.kind, conversation),
        owner,
        conversation,
        cardKey: null,
        state: first as unknown as Record<string, unknown>,
        nextCheckAt: first.next,
        expiresAt: now + SUBSCRIPTION_LIFETIME_MS,
      });
  });
  ctx.deps.logger.info({ conversation, kind: 'digest', target: schedule.kind }, 'channel subscribed');
  return message(
    {
      title: md`Subscribed: ${literal(schedule.kind)} digest`,
      tone: 'success',
      text: md`This channel now gets the ${describeDigest(schedule, true)}: ${WHAT_IT_POSTS.digest}. The next one comes ${formatBoth(nextDue(schedule, now), schedule.zone)}.`,
      context: md`Set up by ${ctx.req.userName ? literal(ctx.req.userName) : formatMention(ctx.req.user)}${owner ? md` with their key` : md` with the workspace's shared key`} · ${command('unsubscribe', ['digest', schedule.kind])} to stop`,
    },
    'channel',
  );
}
