/**
 * Filters of a channel subscription (`subscribe calendar --platform tiktok --status failed`, `subscribe videos
 * --by @member`): read from what was typed, kept with the subscription's store row, told in words, and matched
 * by the feed watcher. A message is posted only when every filter matches; a subscription without filters
 * follows everything, as before filters existed.
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import { formatMention, parseMentions } from '../people/mentions.js';
import { platformName } from '../platforms/names.js';
import { decodeAddress } from '../ports/address.js';
import type { Store, SubscriptionFilters, SubscriptionKind, UserAddress } from '../ports/index.js';
import { type CardText, command, joinText, md, parseMention } from '../text/text.js';

export const FILTER_STATUSES = ['posted', 'failed'] as const;

/** Which filters each kind takes: a video has no post status, a calendar entry one platform. */
const SUBSCRIPTION_KINDS = ['calendar', 'videos', 'series'] as const;
const FILTERS_OF: Record<SubscriptionKind, readonly (keyof SubscriptionFilters)[]> = {
  calendar: ['platform', 'status', 'by'],
  videos: ['by'],
  series: [],
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
  a.platform === b.platform && a.status === b.status && a.by === b.by;

/** "only failed posts · only TikTok · only videos by @bo"; undefined when nothing is filtered. */
export function describeFilters(filters: SubscriptionFilters | undefined): CardText | undefined {
  const words: CardText[] = [];
  if (filters?.status === 'failed') words.push(md`only failed posts`);
  if (filters?.status === 'posted') words.push(md`only posts that went out`);
  if (filters?.platform) words.push(md`only ${platformName(filters.platform)}`);
  if (filters?.by) words.push(md`only videos by ${formatMention(filters.by)}`);
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
