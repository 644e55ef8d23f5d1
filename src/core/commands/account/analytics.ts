/**
 * `analytics [--platform P] [--range 7|28|90] [--account A]`: views and posts over a trailing window (GET /analytics),
 * per platform and the top posts. While the service is still syncing (`ready` false) the card says so
 * instead of presenting partial numbers as final.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { clip, count } from '../../format/account.js';
import { type ActionSpec, defineCommand } from '../../parse/command-spec.js';
import { PLATFORM_NAMES, platformName } from '../../platforms/names.js';
import type { Card, Field, Response } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import type { Chart } from '../../text/chart.js';
import type { Table } from '../../text/table.js';
import { type CardText, code, command, hole, joinText, link, literal, md } from '../../text/text.js';
import {
  type Account,
  type Accounts,
  ANALYTICS_PLATFORMS,
  type Analytics,
  type AnalyticsPlatform,
  VideoApiError,
} from '../../video-api/video-api.js';

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
  details: md`Analytics cover YouTube, TikTok, Instagram and Facebook. New posts take a while to sync.`,
  async run(ctx, args) {
    const range = args.range ? (Number(args.range) as 7 | 28 | 90) : undefined;
    const platform = args.platform as AnalyticsPlatform | undefined;
    const found = args.account ? await analyticsAccount(ctx, args.account, platform) : undefined;
    if (found?.kind === 'ask') return message(whichAccountCard(args.account ?? '', found.matches, range));
    return analyticsCard(ctx, { platform, range, account: found?.account });
  },
});

/** The select's choice: `range|platform|authId` (ids only; the account is looked up again on arrival). */
const ACCOUNT_ACTION = 'analytics.account';

export const analyticsAccountAction: ActionSpec = {
  action: ACCOUNT_ACTION,
  async run(ctx, value, choice) {
    const [rangeText, platform, authId] = (choice ?? value).split('|');
    const range = (RANGES as readonly string[]).includes(rangeText ?? '')
      ? (Number(rangeText) as 7 | 28 | 90)
      : undefined;
    if (!platform || !authId || !(ANALYTICS_PLATFORMS as readonly string[]).includes(platform))
      throw userError('interaction-expired');
    const found = await analyticsAccount(ctx, authId, platform as AnalyticsPlatform);
    if (found.kind !== 'use') throw userError('interaction-expired');
    return analyticsCard(ctx, { platform: platform as AnalyticsPlatform, range, account: found.account });
  },
};

/** Several accounts of different platforms answer to the label: the member picks one (platform and label). */
function whichAccountCard(ref: string, matches: Match[], range: number | undefined): Card {
  return {
    title: md`Which account?`,
    tone: 'info',
    text: md`${matches.length} connected accounts match ${code(ref.trim())}. Pick one: its analytics come back here.`,
    controls: [
      {
        kind: 'select',
        action: ACCOUNT_ACTION,
        placeholder: 'Choose an account',
        options: matches.slice(0, 25).map((m) => ({
          label: `${platformName(m.platform)} · ${m.account.label}`,
          value: `${range ?? ''}|${m.platform}|${m.account.authId}`,
        })),
      },
    ],
    context: md`Next time, name the platform too: ${command('analytics', [], { platform: matches[0]?.platform ?? 'youtube', account: ref.trim() })}`,
  };
}

async function analyticsCard(
  ctx: CommandContext,
  o: {
    platform: AnalyticsPlatform | undefined;
    range: 7 | 28 | 90 | undefined;
    account: Account | undefined;
  },
): Promise<Response> {
  const { platform, range, account } = o;
  const api = await ctx.api();
  const a = await api.analytics.get({
    ...(platform ? { platform } : {}),
    ...(range ? { range } : {}),
    ...(account ? { authId: account.authId } : {}),
  });

  const fields: Field[] = [
    { label: md`Total views`, value: count(a.totalViews), short: true },
    ...(a.viewsGained !== undefined
      ? [{ label: md`Views gained (${a.rangeDays} d)`, value: count(a.viewsGained), short: true }]
      : []),
    { label: md`Posts synced`, value: md`${a.postsSynced}`, short: true },
    ...(a.posts7d !== undefined ? [{ label: md`Posts (7 d)`, value: md`${a.posts7d}`, short: true }] : []),
    ...(a.likes !== undefined ? [{ label: md`Likes`, value: count(a.likes), short: true }] : []),
  ];

  const perPlatform = Object.entries(a.byPlatform)
    // Platforms with nothing posted are noise in a per-platform breakdown.
    .filter(([, p]) => p.postsSynced > 0 || p.totalViews > 0)
    .sort(([, x], [, y]) => y.totalViews - x.totalViews);
  const chart = perPlatform.length > 0 && !platform ? viewsChart(perPlatform) : undefined;
  const top = [...a.topPosts].sort((x, y) => y.views - x.views).slice(0, TOP_POSTS);

  const notes: CardText[] = [];
  if (!a.ready)
    notes.push(
      md`⏳ **Still syncing**: recent posts are not counted yet, so these numbers will grow. Check again in a few minutes.`,
    );
  if (a.postsSynced === 0 && a.topPosts.length === 0) {
    notes.push(
      md`No published posts in this window yet. Publish one with ${command('publish', [hole('video'), hole('platform')])}.`,
    );
  }
  return message({
    title: md`Analytics · last ${a.rangeDays} days${platform ? md` · ${platformName(platform)}` : md``}${account ? md` · ${literal(account.label)}` : md``}`,
    tone: a.ready ? 'info' : 'progress',
    ...(notes.length > 0 ? { text: joinText(notes, '\n') } : {}),
    fields,
    ...(chart ? { charts: [chart] } : {}),
    ...(top.length > 0 ? { table: topPostsTable(top) } : {}),
  });
}

type PlatformStats = Analytics['byPlatform'][string];

/**
 * Views per platform as bars: everything counted so far and, when the service reports it, what the last
 * 28 days added. The chart's numbers are its text wherever it is not drawn.
 */
function viewsChart(perPlatform: [string, PlatformStats][]): Chart {
  const gained = perPlatform.every(([, s]) => s.viewsGained28d !== undefined);
  return {
    kind: 'bar',
    title: 'Views per platform',
    categories: perPlatform.map(([p]) => PLATFORM_NAMES[p] ?? p),
    series: [
      { name: 'Total views', values: perPlatform.map(([, s]) => s.totalViews) },
      ...(gained
        ? [{ name: 'Gained in 28 days', values: perPlatform.map(([, s]) => s.viewsGained28d ?? 0) }]
        : []),
    ],
    unit: 'views',
  };
}

/** The most viewed posts as a table: the post (linked), its platform and its views. */
function topPostsTable(top: Analytics['topPosts']): Table {
  return {
    caption: 'Top posts',
    columns: [{ label: 'Post' }, { label: 'Platform' }, { label: 'Views' }],
    rows: top.map((p) => {
      const title = clip(p.title || 'Untitled', 80);
      return [
        p.postUrl ? link(title, p.postUrl) : literal(title),
        platformName(p.platform),
        { value: p.views, text: count(p.views) },
      ];
    }),
  };
}

interface Match {
  platform: AnalyticsPlatform;
  account: Account;
}

/**
 * The account `--account` names, by id or label (exact, else a unique prefix), among the platform's accounts
 * or every analytics platform's; `ask` when one label names accounts on several platforms (`@brand` on YouTube
 * and TikTok). A key without `accounts:read` sends the text as the id (the service judges).
 */
async function analyticsAccount(
  ctx: CommandContext,
  ref: string,
  platform: AnalyticsPlatform | undefined,
): Promise<{ kind: 'use'; account: Account } | { kind: 'ask'; matches: Match[] }> {
  let accounts: Accounts;
  try {
    accounts = await ctx.deps.catalog.accounts(await ctx.api(), await ctx.apiKeyId());
  } catch (error) {
    if (error instanceof VideoApiError && error.type === 'forbidden_scope')
      return { kind: 'use', account: { authId: ref.trim(), label: ref.trim(), isDefault: false } };
    throw error;
  }
  const platforms = platform ? [platform] : ANALYTICS_PLATFORMS;
  const list: Match[] = platforms.flatMap((p) =>
    (accounts[p] ?? []).map((account) => ({ platform: p, account })),
  );
  const wanted = ref.trim();
  const lower = wanted.toLowerCase();
  const byId = list.find((m) => m.account.authId === wanted);
  if (byId) return { kind: 'use', account: byId.account };
  const byLabel = list.filter((m) => m.account.label.toLowerCase() === lower);
  const byPrefix = list.filter((m) => m.account.label.toLowerCase().startsWith(lower));
  const matches = byLabel.length > 0 ? byLabel : byPrefix;
  const [only] = matches;
  if (only && matches.length === 1) return { kind: 'use', account: only.account };
  if (matches.length > 1) return { kind: 'ask', matches };
  throw userError('not-found-account', {
    ref: wanted,
    platform: platform ? platformName(platform) : 'YouTube, TikTok, Instagram or Facebook',
    option: 'account',
  });
}
