/**
 * `analytics [--platform P] [--range 7|28|90] [--account A]`: views and posts over a trailing window (GET /analytics),
 * per platform and the top posts. While the service is still syncing (`ready` false) the card says so
 * instead of presenting partial numbers as final.
 */
import type { Field, Section } from '../../cards.js';
import { message } from '../../cards.js';
import { defineCommand } from '../../command-spec.js';
import { type CommandContext, userError } from '../../context.js';
import { clip, count } from '../../format/account.js';
import { platformName } from '../../platforms/names.js';
import { command, hole, link, literal } from '../../text.js';
import {
  type Account,
  type Accounts,
  ANALYTICS_PLATFORMS,
  type AnalyticsPlatform,
  VideoApiError,
} from '../../video-api.js';

const RANGES = ['7', '28', '90'] as const;
const TOP_POSTS = 5;

export const analyticsCommand = defineCommand({
  name: 'analytics',
  summary: 'Views and posts over the last 7, 28 or 90 days, per platform, top posts',
  options: [
    { name: 'platform', kind: 'choice', choices: ANALYTICS_PLATFORMS, description: 'Only one platform' },
    { name: 'range', kind: 'choice', choices: RANGES, description: 'Trailing window in days (default 28)' },
    {
      name: 'account',
      kind: 'account',
      advanced: true,
      description: 'Only one connected account: its label or id (see `accounts`)',
    },
  ],
  examples: [
    'analytics',
    'analytics --range 7',
    'analytics --platform youtube --range 90',
    'analytics --platform youtube --account "Brand EU"',
  ],
  details: 'Analytics cover YouTube, TikTok, Instagram and Facebook. New posts take a while to sync.',
  async run(ctx, args) {
    const range = args.range ? (Number(args.range) as 7 | 28 | 90) : undefined;
    const platform = args.platform as AnalyticsPlatform | undefined;
    const account = args.account ? await analyticsAccount(ctx, args.account, platform) : undefined;
    const a = await (await ctx.api()).analytics.get({
      ...(platform ? { platform } : {}),
      ...(range ? { range } : {}),
      ...(account ? { authId: account.authId } : {}),
    });

    const fields: Field[] = [
      { label: 'Total views', value: count(a.totalViews), short: true },
      ...(a.viewsGained !== undefined
        ? [{ label: `Views gained (${a.rangeDays} d)`, value: count(a.viewsGained), short: true }]
        : []),
      { label: 'Posts synced', value: String(a.postsSynced), short: true },
      ...(a.posts7d !== undefined ? [{ label: 'Posts (7 d)', value: String(a.posts7d), short: true }] : []),
      ...(a.likes !== undefined ? [{ label: 'Likes', value: count(a.likes), short: true }] : []),
    ];

    const sections: Section[] = [];
    // Platforms with nothing posted are noise in a per-platform breakdown.
    const perPlatform = Object.entries(a.byPlatform)
      .filter(([, p]) => p.postsSynced > 0 || p.totalViews > 0)
      .sort(([, x], [, y]) => y.totalViews - x.totalViews);
    if (perPlatform.length > 0 && !platform) {
      sections.push({
        text: `**By platform**\n${perPlatform
          .map(
            ([p, s]) =>
              `• **${literal(platformName(p))}** — ${count(s.totalViews)} views · ${s.postsSynced} posts` +
              (s.viewsGained28d !== undefined ? ` · +${count(s.viewsGained28d)} in 28 d` : ''),
          )
          .join('\n')}`,
      });
    }
    const top = [...a.topPosts].sort((x, y) => y.views - x.views).slice(0, TOP_POSTS);
    if (top.length > 0) {
      sections.push({
        text: `**Top posts**\n${top
          .map((p, i) => {
            const title = clip(p.title || 'Untitled', 80);
            const shown = p.postUrl ? link(title, p.postUrl) : literal(title);
            return `${i + 1}. ${shown} — ${literal(platformName(p.platform))} · ${count(p.views)} views`;
          })
          .join('\n')}`,
      });
    }

    const notes: string[] = [];
    if (!a.ready)
      notes.push(
        '⏳ **Still syncing**: recent posts are not counted yet, so these numbers will grow. Check again in a few minutes.',
      );
    if (a.postsSynced === 0 && a.topPosts.length === 0) {
      notes.push(
        `No published posts in this window yet. Publish one with ${command('publish', [hole('video'), hole('platform')])}.`,
      );
    }
    return message({
      title:
        `Analytics · last ${a.rangeDays} days${platform ? ` · ${platformName(platform)}` : ''}` +
        (account ? ` · ${literal(account.label)}` : ''),
      tone: a.ready ? 'info' : 'progress',
      ...(notes.length > 0 ? { text: notes.join('\n') } : {}),
      fields,
      ...(sections.length > 0 ? { sections } : {}),
    });
  },
});

/**
 * The account `--account` names, by id or label (exact, else a unique prefix), among the platform's accounts
 * or every analytics platform's. A key without `accounts:read` sends the text as the id (the service judges).
 */
async function analyticsAccount(
  ctx: CommandContext,
  ref: string,
  platform: AnalyticsPlatform | undefined,
): Promise<Account> {
  let accounts: Accounts;
  try {
    accounts = await ctx.deps.catalog.accounts(await ctx.api(), await ctx.apiKeyId());
  } catch (error) {
    if (error instanceof VideoApiError && error.type === 'forbidden_scope')
      return { authId: ref.trim(), label: ref.trim(), isDefault: false };
    throw error;
  }
  const platforms: readonly string[] = platform ? [platform] : ANALYTICS_PLATFORMS;
  const list = platforms.flatMap((p) => accounts[p] ?? []);
  const wanted = ref.trim();
  const lower = wanted.toLowerCase();
  const byLabel = list.filter((a) => a.label.toLowerCase() === lower);
  const byPrefix = list.filter((a) => a.label.toLowerCase().startsWith(lower));
  const hit =
    list.find((a) => a.authId === wanted) ??
    (byLabel.length === 1 ? byLabel[0] : byPrefix.length === 1 ? byPrefix[0] : undefined);
  if (!hit)
    throw userError('not-found-account', {
      ref: wanted,
      platform: platform ? platformName(platform) : 'YouTube, TikTok, Instagram or Facebook',
      option: 'account',
    });
  return hit;
}
