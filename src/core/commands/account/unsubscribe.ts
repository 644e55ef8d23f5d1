/**
 * `unsubscribe <calendar | videos | series <s> | digest daily|weekly>`: the channel stops following a feed; its
 * watch ends.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { refreshHomes } from '../../home/home-refresh.js';
import { unwatchSeries } from '../../live/series-watcher.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { requireAdmin } from '../../people/admin.js';
import { formatMention } from '../../people/mentions.js';
import type { SubscriptionKind } from '../../ports/index.js';
import {
  describeSubscription,
  FEED_KINDS,
  seriesNameOf,
  subscriptionWatch,
} from '../../settings/subscriptions.js';
import type { Response } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { literal, md } from '../../text/text.js';
import { resolveSeries } from '../../video-api/references.js';

/** `unsubscribe digest daily|weekly`: which digest (the word lands in the series slot). */
function digestKind(typed: string | undefined): string {
  const kind = typed?.trim().toLowerCase();
  if (kind === 'daily' || kind === 'weekly') return kind;
  throw userError('digest-bad-schedule', { value: ['digest', typed ?? ''].join(' ').trim() });
}

export const unsubscribeCommand: CommandSpec = defineCommand({
  name: 'unsubscribe',
  summary: 'Stop following posts, new videos or a series in this channel',
  options: [
    {
      name: 'what',
      kind: 'choice',
      positional: true,
      required: true,
      choices: FEED_KINDS,
      description: 'What to stop following',
    },
    { name: 'series', kind: 'series', positional: true, description: 'The series (with `series`)' },
  ],
  examples: ['unsubscribe calendar', 'unsubscribe series "Daily facts"', 'unsubscribe digest daily'],
  async run(ctx, args): Promise<Response> {
    const kind = args.what as SubscriptionKind;
    if (kind === 'series' && !args.series) throw userError('subscribe-needs-series');
    if (kind !== 'series' && kind !== 'digest' && args.series) {
      throw userError('subscribe-no-target', { what: kind, value: args.series });
    }
    await requireAdmin(ctx, 'change subscriptions');

    const conversation = ctx.req.conversation;
    const series = kind === 'series' ? await followedSeries(ctx, args.series as string) : undefined;
    const target = kind === 'digest' ? digestKind(args.series) : (series?.id ?? '');
    const sub = { kind, target, conversation };
    const row = (await ctx.deps.store.subscriptions.list(conversation)).find(
      (s) => s.kind === kind && s.target === target,
    );
    const label = describeSubscription(row ?? sub, series?.name);
    const store = ctx.deps.store;
    const removed = await store.transaction(async () => {
      const row = await store.subscriptions.remove(conversation, kind, sub.target);
      const now = ctx.now();
      await refreshHomes(store, {
        where: [conversation],
        cause: `unsubscribe:${kind}:${conversation}:${now}`,
        now,
      });
      let watching = false;
      if (kind === 'series') watching = await unwatchSeries(store, sub.target, conversation);
      else {
        const watch = await subscriptionWatch(store, sub);
        if (watch) await store.watches.update(watch.id, { status: 'done' });
        watching = watch !== undefined;
      }
      return row || watching;
    });
    if (!removed) throw userError('not-subscribed', { what: label });
    ctx.deps.logger.info({ conversation, kind, target: sub.target }, 'channel unsubscribed');
    return message(
      {
        title: md`Unsubscribed`,
        tone: 'success',
        text: md`This channel no longer follows ${label}.`,
        context: md`By ${ctx.req.userName ? literal(ctx.req.userName) : formatMention(ctx.req.user)}`,
      },
      'channel',
    );
  },
});

/**
 * The series as this channel follows it: matched against its subscriptions first (id, or the name its watch
 * remembers), so a deleted series can still be unfollowed; otherwise resolved like everywhere else.
 */
async function followedSeries(ctx: CommandContext, ref: string): Promise<{ id: string; name?: string }> {
  const wanted = ref.trim().toLowerCase();
  const store = ctx.deps.store;
  const followed = await Promise.all(
    (await store.subscriptions.list(ctx.req.conversation))
      .filter((s) => s.kind === 'series')
      .map(async (s) => {
        const name = seriesNameOf(await subscriptionWatch(store, s));
        return name ? { id: s.target, name } : { id: s.target };
      }),
  );
  const byId = followed.find((s) => s.id.toLowerCase() === wanted);
  if (byId) return byId;
  const byName = followed.filter((s) => s.name?.toLowerCase().startsWith(wanted));
  if (byName.length === 1 && byName[0]) return byName[0];
  return resolveSeries(ctx, ref);
}
