/**
 * Filters of a channel subscription (`subscribe calendar --platform tiktok --status failed`, `subscribe videos
 * --by @member`, `subscribe series <s> --status failed`): read from what was typed, kept with the subscription's store row, told in words, and matched
 * by the feed watcher (the series watcher for a series' episodes). A message is posted only when every filter matches; a subscription without filters
 * follows everything, as before filters existed.
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import { formatMention, parseMentions } from '../people/mentions.js';
import { platformName } from '../platforms/names.js';
import { decodeAddress } from '../ports/address.js';
import type { Store, SubscriptionFilters, SubscriptionKind, UserAddress } from '../ports/index.js';
import { type CardText, command, joinText, literal, md, parseMention } from '../text/text.js';
import type { VideoApi } from '../video-api/video-api.js';

export const FILTER_STATUSES = ['posted', 'failed'] as const;

/**
 * Which filters each kind takes: a video has no post status, a calendar entry one platform, a series' episode
 * an outcome (posted or failed) but no single platform.
 */
const SUBSCRIPTION_KINDS = ['calendar', 'videos', 'series'] as const;
const FILTERS_OF: Record<SubscriptionKind, readonly (keyof SubscriptionFilters)[]> = {
  calendar: ['platform', 'status', 'by'],
  videos: ['by'],
  series: ['status'],
  digest: [],
};

/** The filters typed with `subscribe`; a filter the kind cannot use, or a `--by` that is no member, is refused. */
export function readFilters(
  ctx: CommandContext,
  kind: SubscriptionKind,
  typed: { platform?: string | undefined; status?: string | undefined; by?: string | undefined },
): SubscriptionFilters {
  const filters: SubscriptionFilters = {};
  for (const name of ['platform', 'status', 'by'] as const) {
    const value = typed[name];
    if (value === undefined || FILTERS_OF[kind].includes(name)) continue;
    const kinds = SUBSCRIPTION_KINDS.filter((k) => FILTERS_OF[k].includes(name));
    const expected = md`a value only with ${joinText(
      kinds.map((k) => command('subscribe', [k])),
      ' or ',
    )}`;
    throw userError('bad-setting-value', { key: `--${name}`, expected, value });
  }
  if (typed.platform) filters.platform = typed.platform;
  if (typed.status) filters.status = typed.status as 'posted' | 'failed';
  if (typed.by !== undefined) filters.by = memberOf(ctx, typed.by);
  return filters;
}

/** One member (not a group) out of `--by`'s mention. */
function memberOf(ctx: CommandContext, typed: string): UserAddress {
  const refs = parseMentions(typed, { mentioned: ctx.req.mentions });
  const ref = refs.ok && refs.value.length === 1 ? refs.value[0] : undefined;
  if (!ref || parseMention(ref)?.kind !== 'user') {
    throw userError('bad-setting-value', {
      key: '--by',
      expected: md`one member (type @ and pick them)`,
      value: typed,
    });
  }
  return ref;
}

export const sameFilters = (a: SubscriptionFilters = {}, b: SubscriptionFilters = {}): boolean =>
  a.platform === b.platform && a.status === b.status && a.by === b.by && a.series === b.series;

/**
 * "only failed posts · only TikTok · only videos by @bo" ("only failed episodes" for a series); undefined when
 * nothing is filtered.
 */
export function describeFilters(
  filters: SubscriptionFilters | undefined,
  kind?: SubscriptionKind,
): CardText | undefined {
  const words: CardText[] = [];
  const episodes = kind === 'series';
  if (filters?.status === 'failed') words.push(episodes ? md`only failed episodes` : md`only failed posts`);
  if (filters?.status === 'posted')
    words.push(episodes ? md`only episodes that went out` : md`only posts that went out`);
  if (filters?.platform) words.push(md`only ${platformName(filters.platform)}`);
  if (filters?.by) words.push(md`only videos by ${formatMention(filters.by)}`);
  if (filters?.series) words.push(md`only the series **${literal(filters.seriesName ?? filters.series)}**`);
  return words.length > 0 ? joinText(words, ' · ') : undefined;
}

/** Whether a calendar entry passes the platform and status filters (`by` is matched with `madeBy`). */
export const entryMatches = (
  filters: SubscriptionFilters | undefined,
  entry: { platform: string; status: string },
): boolean =>
  (!filters?.platform || filters.platform === entry.platform) &&
  (!filters?.status || filters.status === entry.status);

/**
 * Who made a video through the bot in this conversation's workspace: the requester its `video.create` audit
 * entry names (an approver's click creates it for the requester). Undefined for a video made elsewhere, which
 * a `--by` filter therefore never matches.
 */
export async function madeBy(
  store: Store,
  input: { conversation: string; videoId: string },
): Promise<UserAddress | undefined> {
  const { platform, workspace } = decodeAddress(input.conversation);
  const entries = await store.audit.list({
    workspacePrefix: `${platform}:${workspace}:`,
    videoId: input.videoId,
  });
  const created = entries.find((e) => e.action === 'video.create');
  if (!created) return undefined;
  const requester = created.details?.requester;
  return typeof requester === 'string' ? requester : created.actor;
}

/** Episodes read per look for `--series` (newest first): a calendar window holds far fewer of one series. */
const SERIES_EPISODES = 100;

/**
 * The videos of a series' recent episodes, for a calendar subscription's `--series` filter (a calendar entry
 * names its video, not its series).
 */
export async function seriesVideos(api: VideoApi, seriesId: string): Promise<Set<string>> {
  const { items } = await api.series.episodes(
    seriesId,
    { page: 1, limit: SERIES_EPISODES },
    { priority: 'background' },
  );
  return new Set(items.flatMap((e) => (e.projectId ? [e.projectId] : [])));
}
