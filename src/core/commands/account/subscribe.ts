/**
 * `subscribe [calendar | videos | series <s>]`: the channel follows a feed of the team's activity. Each
 * subscription is a store row plus a watch polled with the subscriber's key. The first read happens here,
 * with the caller's key: it proves the key may read that feed (a missing scope is answered now, not
 * silently later) and records what already exists, so only later changes are announced.
 * `subscribe` alone lists what the channel follows.
 */

import { describeDigest, scheduleOf } from '../../digests/digest-schedule.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import { refreshHomes } from '../../home/home-refresh.js';
import { feedTarget, observeFeed } from '../../live/feed-watcher.js';
import { settledEpisodes } from '../../live/series-outcomes.js';
import { watchSeries } from '../../live/series-watcher.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { requireAdmin } from '../../people/admin.js';
import { formatMention } from '../../people/mentions.js';
import type { Subscription, SubscriptionFilters, SubscriptionKind } from '../../ports/index.js';
import {
  describeFilters,
  FILTER_STATUSES,
  readFilters,
  sameFilters,
} from '../../settings/subscription-filters.js';
import {
  describeSubscription,
  FEED_KINDS,
  seriesNameOf,
  subscriptionWatch,
  WHAT_IT_POSTS,
} from '../../settings/subscriptions.js';
import type { Card, Response } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { type CardText, code, command, hole, joinText, literal, md } from '../../text/text.js';
import { formatDateTime } from '../../time/format.js';
import { resolveSeries } from '../../video-api/references.js';
import { subscribeDigest } from './subscribe-digest.js';

const MINUTE = 60_000;
/** Subscriptions last until unsubscribed; the watch still needs an expiry, so it is far away. */
const SUBSCRIPTION_LIFETIME_MS = 100 * 365 * 24 * 3600_000;

export const subscribeCommand: CommandSpec = defineCommand({
  name: 'subscribe',
  summary: 'Follow posted/failed posts, new videos or a series in this channel (alone: list them)',
  options: [
    { name: 'what', kind: 'choice', positional: true, choices: FEED_KINDS, description: 'What to follow' },
    { name: 'series', kind: 'series', positional: true, description: 'The series to follow (with `series`)' },
    {
      name: 'when',
      kind: 'text',
      positional: true,
      rest: true,
      advanced: true,
      description: 'With `digest`: `daily 09:00` or `weekly mon 09:00`',
    },
    { name: 'platform', kind: 'platform', description: 'Only posts to this platform', advanced: true },
    {
      name: 'status',
      kind: 'choice',
      choices: FILTER_STATUSES,
      description: 'Only posts (or episodes) that went out, or failed',
      advanced: true,
    },
    { name: 'by', kind: 'string', description: 'Only videos this member made', advanced: true },
  ],
  examples: [
    'subscribe calendar',
    'subscribe calendar --platform tiktok --status failed',
    'subscribe videos --by @bo',
    'subscribe calendar --series "Daily facts" --status failed',
    'subscribe series "Daily facts"',
    'subscribe series "Daily facts" --status failed',
    'subscribe digest daily 09:00',
    'subscribe digest weekly mon 09:00',
    'subscribe',
  ],
  details: md`\`calendar\`: a message when a scheduled post goes out or fails. \`videos\`: a short card for every new video of the team. \`series <s>\`: each new episode gets its own status card. Filters keep only what matches all of them: \`--platform\` (calendar), \`--status posted|failed\` (calendar; with a series, one message per episode that went out or failed instead of its card), \`--by @member\` (calendar, videos: videos they made with the bot), \`--series <s>\` (calendar: only its episodes' posts); subscribing again with other filters replaces them. \`digest daily <time>\` and \`digest weekly <day> <time>\`: a summary at that time in the channel's zone (today's posts, yesterday's outcomes, requests waiting for approval, credits; weekly: views gained by day and by platform, top posts, what was published). The feed is read with your key; ${command('unsubscribe', [hole('what')])} stops it.`,
  async run(ctx, args): Promise<Response> {
    if (!args.what) return message(await listCard(ctx));
    const kind = args.what as SubscriptionKind;
    if (kind === 'series' && !args.series) throw userError('subscribe-needs-series');
    if (kind === 'videos' && args.series) {
      throw userError('subscribe-no-target', { what: kind, value: args.series });
    }
    const filters = readFilters(ctx, kind, args);
    if (kind === 'digest') {
      // `digest daily 09:00`: the words after `digest` (the second one lands in the series slot).
      const typed = [args.series, args.when].filter(Boolean).join(' ');
      await requireAdmin(ctx, 'change subscriptions');
      return subscribeDigest(ctx, typed);
    }
    if (args.when) throw userError('subscribe-no-target', { what: kind, value: args.when });
    await requireAdmin(ctx, 'change subscriptions');
    // `subscribe calendar --series S`: only the posts of that series' episodes.
    if (kind === 'calendar' && args.series) {
      const series = await resolveSeries(ctx, args.series);
      Object.assign(filters, { series: series.id, seriesName: series.name });
    }
    return kind === 'series'
      ? subscribeSeries(ctx, args.series as string, filters)
      : subscribeFeed(ctx, kind, filters);
  },
});

async function subscribeFeed(
  ctx: CommandContext,
  kind: 'calendar' | 'videos',
  filters: SubscriptionFilters,
): Promise<Response> {
  const store = ctx.deps.store;
  const conversation = ctx.req.conversation;
  const sub = { kind, target: '', conversation, filters };
  const following = await isFollowing(ctx, sub);
  if (following) return refilter(ctx, following, sub);

  const now = ctx.now();
  const baseline = await observeFeed(await ctx.api(), { kind, now });
  const owner = await ctx.keyOwner();
  await store.transaction(async () => {
    // A row whose watch had stopped is taken up again with the filters typed now.
    const added = await store.subscriptions.add({ conversation, kind, target: '', owner, filters });
    if (!added) await store.subscriptions.setFilters(sub, filters);
    await refreshHomes(store, {
      where: [conversation],
      cause: `subscribe:${kind}:${conversation}:${now}`,
      now,
    });
    if (await subscriptionWatch(store, sub)) return;
    await store.watches.add({
      kind: 'feed',
      target: feedTarget({ kind, conversation }),
      owner,
      conversation,
      cardKey: null,
      state: baseline.state as unknown as Record<string, unknown>,
      nextCheckAt: now + Math.min(10 * MINUTE, Math.max(MINUTE, baseline.nextCheckInMs)),
      expiresAt: now + SUBSCRIPTION_LIFETIME_MS,
    });
  });
  return subscribed(ctx, { sub, title: kind, owner });
}

async function subscribeSeries(
  ctx: CommandContext,
  ref: string,
  filters: SubscriptionFilters,
): Promise<Response> {
  const store = ctx.deps.store;
  const conversation = ctx.req.conversation;
  const series = await resolveSeries(ctx, ref);
  const sub = { kind: 'series' as const, target: series.id, conversation, filters };
  const following = await isFollowing(ctx, sub);
  if (following) return refilter(ctx, following, { ...sub, name: series.name });

  // The episodes that exist now are history (and their outcomes): only later ones are told here.
  const api = await ctx.api();
  const { items } = await api.series.episodes(series.id, { page: 1, limit: 20 });
  const owner = await ctx.keyOwner();
  const now = ctx.now();
  await store.transaction(async () => {
    const added = await store.subscriptions.add({
      conversation,
      kind: 'series',
      target: series.id,
      owner,
      filters,
    });
    if (!added) await store.subscriptions.setFilters(sub, filters);
    await refreshHomes(store, {
      where: [conversation],
      cause: `subscribe:series:${conversation}:${now}`,
      now,
    });
    await watchSeries(store, {
      seriesId: series.id,
      conversation,
      owner,
      now,
      name: series.name,
      primed: true,
      seen: items.map((e) => e.id),
      settled: settledEpisodes(items),
    });
  });
  await store.users.setLast(ctx.req.user, 'series', series.id);
  return subscribed(ctx, { sub, title: series.name, owner });
}

/** The channel's running subscription of this kind and target, if any. */
async function isFollowing(
  ctx: CommandContext,
  sub: { kind: SubscriptionKind; target: string; conversation: string },
): Promise<Subscription | undefined> {
  const store = ctx.deps.store;
  const row = (await store.subscriptions.list(sub.conversation)).find(
    (s) => s.kind === sub.kind && s.target === sub.target,
  );
  return row && (await subscriptionWatch(store, sub)) ? row : undefined;
}

const alreadyFollowing = (what: CardText): Response =>
  message({ title: md`Already subscribed`, tone: 'info', text: md`This channel already follows ${what}.` });

/** Subscribing again with other filters replaces them, and says so; with the same ones, nothing changes. */
async function refilter(
  ctx: CommandContext,
  row: Subscription,
  sub: {
    kind: SubscriptionKind;
    target: string;
    conversation: string;
    filters: SubscriptionFilters;
    /** The series' name, to say which series it follows. */
    name?: string;
  },
): Promise<Response> {
  const what = describeSubscription(sub, sub.name);
  if (sameFilters(row.filters, sub.filters)) return alreadyFollowing(what);
  const store = ctx.deps.store;
  const now = ctx.now();
  await store.transaction(async () => {
    await store.subscriptions.setFilters(sub, sub.filters);
    await refreshHomes(store, {
      where: [sub.conversation],
      cause: `subscribe:${sub.kind}:${sub.conversation}:${now}`,
      now,
    });
  });
  ctx.deps.logger.info({ conversation: sub.conversation, kind: sub.kind }, 'subscription filters replaced');
  const before = describeFilters(row.filters, sub.kind) ?? md`everything`;
  const after = describeFilters(sub.filters, sub.kind) ?? md`everything`;
  return message(
    {
      title: md`Filters replaced: ${literal(sub.kind)}`,
      tone: 'success',
      text: md`This channel already followed ${what}; it now keeps ${after} (instead of ${before}).`,
      context: md`By ${ctx.req.userName ? literal(ctx.req.userName) : formatMention(ctx.req.user)} · ${command('unsubscribe', sub.kind === 'series' ? ['series', sub.target] : [sub.kind])} to stop`,
    },
    'channel',
  );
}

function subscribed(
  ctx: CommandContext,
  {
    sub,
    title,
    owner,
  }: {
    sub: { kind: SubscriptionKind; target: string; conversation: string; filters?: SubscriptionFilters };
    title: string;
    owner: string;
  },
): Response {
  ctx.deps.logger.info(
    { conversation: sub.conversation, kind: sub.kind, target: sub.target },
    'channel subscribed',
  );
  const stop = sub.kind === 'series' ? ['series', sub.target] : [sub.kind];
  const filtered = describeFilters(sub.filters, sub.kind);
  return message(
    {
      title: md`Subscribed: ${literal(title)}`,
      tone: 'success',
      text: md`This channel now follows ${describeSubscription(sub, title)}: ${WHAT_IT_POSTS[sub.kind]} will show up here${filtered ? md` (${filtered})` : md``}.`,
      context: md`Set up by ${ctx.req.userName ? literal(ctx.req.userName) : formatMention(ctx.req.user)}${owner ? md` with their key` : md` with the workspace's shared key`} · ${command('unsubscribe', stop)} to stop`,
    },
    'channel',
  );
}

/** What this channel follows, who set it up and since when. */
async function listCard(ctx: CommandContext): Promise<Card> {
  const store = ctx.deps.store;
  const subs = await store.subscriptions.list(ctx.req.conversation);
  if (subs.length === 0) {
    return {
      title: md`No subscriptions here`,
      tone: 'info',
      text: md`This channel follows nothing yet. Try:\n• ${command('subscribe', ['calendar'])} — posted and failed posts\n• ${command('subscribe', ['videos'])} — every new video\n• ${command('subscribe', ['series', hole('name')])} — new episodes of a series\n• ${command('subscribe', ['digest', 'daily', '09:00'])} — a summary every morning`,
    };
  }
  const zone = await ctx.timeZone();
  const lines = await Promise.all(
    subs.map(async (s) => {
      const watch = await subscriptionWatch(store, s);
      const what =
        s.kind === 'series'
          ? md`series **${literal(seriesNameOf(watch) ?? s.target)}** (${code(s.target)})`
          : s.kind === 'digest'
            ? digestWords(s)
            : md`**${literal(s.kind)}**`;
      const by = s.owner ? formatMention(s.owner) : md`the workspace's shared key`;
      const stalled = watch
        ? md``
        : md` · ⚠️ stopped: run ${command('subscribe')} for it again, or unsubscribe`;
      const filtered = describeFilters(s.filters, s.kind);
      return md`• ${what} — ${WHAT_IT_POSTS[s.kind]}${filtered ? md` · ${filtered}` : md``} · since ${formatDateTime(s.createdAt, zone)} · by ${by}${stalled}`;
    }),
  );
  return {
    title: md`This channel follows ${subs.length === 1 ? md`1 feed` : md`${subs.length} feeds`}`,
    tone: 'info',
    text: joinText(lines, '\n'),
    context: md`Stop one with ${command('unsubscribe', [hole('what')])}.`,
  };
}

/** "**Daily digest at 09:00 (Europe/Paris)**" in the list. */
function digestWords(s: Subscription): CardText {
  const schedule = scheduleOf(s);
  return schedule ? md`**${describeDigest(schedule)}**` : md`**${literal(s.target)} digest**`;
}
