/**
 * The weekly digest (DESIGN §10): views gained by day and by platform as charts, the top posts with their
 * links, what was published and the credits spent over the seven days before the digest's day.
 *
 * By platform: GET /analytics has no time series, but it has windows. Each platform that has posts is read with
 * `range=7`, and its `viewsGained` is the bar; the older shape of the answer has no gain, and then the chart
 * shows each platform's total views and is titled so.
 *
 * By day: the service gives no daily series at all, so the bot takes its own. A weekly digest's watch wakes
 * every day at the digest's time and records the team's total views (the answer's `totalViews`) in the watch
 * state; a day's bar is the next day's reading minus its own, i.e. the views gained from that time to the same
 * time the next day. A day without both readings (the first week after subscribing, a day the bot was down) has
 * no bar, and the digest says how many days it has, never a guess.
 */
import { count, plural } from '../format/account.js';
import { PLATFORM_NAMES, platformName } from '../platforms/names.js';
import type { Card, Field } from '../text/cards.js';
import type { Chart } from '../text/chart.js';
import type { Table } from '../text/table.js';
import { type CardText, joinText, link, literal, md } from '../text/text.js';
import { formatDay, formatDayLabel, formatListTime } from '../time/format.js';
import { addDays } from '../time/zone.js';
import type { Analytics, AnalyticsPlatform, VideoApi } from '../video-api/video-api.js';
import type { DigestInput } from './daily-digest.js';
import { calendarDays, creditsSpent, scoped, videoLabel, videoNames } from './digest-reads.js';

const background = { priority: 'background' } as const;
const TOP_POSTS = 5;
const MAX_PUBLISHED_LINES = 8;
export const WEEK_DAYS = 7;

/** Total views read at each daily wake, by the day (`YYYY-MM-DD` in the digest's zone) it was read on. */
export type ViewReadings = Record<string, number>;

export interface WeeklyInput extends DigestInput {
  /** The answer of GET /analytics?range=7 read at this wake; undefined when the key may not read analytics. */
  analytics: Analytics | undefined;
  readings: ViewReadings;
  now: number;
}

export async function weeklyDigest(input: WeeklyInput): Promise<Card> {
  const { api, schedule, period, analytics } = input;
  const zone = schedule.zone;
  const from = addDays(period, -WEEK_DAYS);
  const to = addDays(period, -1);
  const published = (await calendarDays(api, { from, to, zone })).filter((e) => e.status === 'posted');
  const names = await videoNames(
    api,
    published.map((e) => e.projectId),
  );
  const credits = await creditsSpent(api, { from, to, zone });
  const byPlatform = analytics ? await platformGains(api, analytics) : undefined;
  const byDay = dayGains(input.readings, from, period);

  const charts: Chart[] = [];
  if (byDay.categories.length > 0) charts.push(byDay.chart);
  if (byPlatform && byPlatform.chart.categories.length > 0) charts.push(byPlatform.chart);
  const fields: Field[] = [
    ...(analytics?.viewsGained !== undefined
      ? [{ label: md`Views gained`, value: count(analytics.viewsGained), short: true }]
      : []),
    { label: md`Published`, value: plural(published.length, 'post'), short: true },
    {
      label: md`Credits`,
      value: credits
        ? md`${credits.spent} spent · ${credits.balance} left`
        : md`not readable with this key (it lacks credits:read)`,
      short: true,
    },
  ];
  const notes: CardText[] = [
    byDay.days === WEEK_DAYS
      ? md`Views by day are the bot's own daily readings of total views (the service keeps no daily series).`
      : md`Views by day: ${byDay.days} of ${WEEK_DAYS} days so far. The service keeps no daily series, so the bot reads the total every day at ${literal(schedule.at)} and shows the days it has both readings for.`,
  ];
  if (!analytics) notes.push(md`Views are not readable with this key (it lacks analytics:read).`);
  else if (byPlatform?.totals)
    notes.push(md`The service reports no weekly gain per platform: the chart shows total views.`);
  if (published.length > 0) {
    const shown = published
      .slice(0, MAX_PUBLISHED_LINES)
      .map(
        (e) =>
          md`• ${platformName(e.platform)} · ${videoLabel(names, e.projectId)} · ${formatListTime(Date.parse(e.scheduledTime), zone, input.now)}`,
      );
    const more = published.length - shown.length;
    notes.unshift(md`**Published**\n${joinText(more > 0 ? [...shown, md`…and ${more} more`] : shown, '\n')}`);
  }
  const top = analytics ? [...analytics.topPosts].sort((a, b) => b.views - a.views).slice(0, TOP_POSTS) : [];
  return {
    title: md`Weekly digest · ${formatDay(from)} to ${formatDay(to)}`,
    tone: 'info',
    text: joinText(notes, '\n\n'),
    fields,
    ...(charts.length > 0 ? { charts } : {}),
    ...(top.length > 0 ? { table: topPostsTable(top) } : {}),
  };
}

/** Views gained per day from consecutive readings, for the days `from`…the day before `period`. */
export function dayGains(
  readings: ViewReadings,
  from: string,
  period: string,
): { chart: Chart; categories: string[]; days: number } {
  const categories: string[] = [];
  const values: number[] = [];
  for (let day = from; day < period; day = addDays(day, 1)) {
    const start = readings[day];
    const end = readings[addDays(day, 1)];
    if (start === undefined || end === undefined) continue;
    categories.push(formatDayLabel(day));
    values.push(Math.max(0, end - start));
  }
  return {
    chart: {
      kind: 'bar',
      title: 'Views gained by day',
      categories,
      series: [{ name: 'Views gained', values }],
      unit: 'views',
      xLabel: 'Day',
    },
    categories,
    days: categories.length,
  };
}

/**
 * Views gained in 7 days per platform that has posts, one `range=7` read each; `totals` when the service's
 * answers carry no gain (the older shape) and the bars are total views instead.
 */
async function platformGains(
  api: VideoApi,
  analytics: Analytics,
): Promise<{ chart: Chart; totals: boolean }> {
  const platforms = Object.entries(analytics.byPlatform)
    .filter(([, s]) => s.postsSynced > 0 || s.totalViews > 0)
    .map(([p]) => p);
  const gains: (number | undefined)[] = [];
  for (const platform of platforms) {
    const one = await scoped(() =>
      api.analytics.get({ platform: platform as AnalyticsPlatform, range: 7 }, background),
    );
    gains.push(one?.viewsGained);
  }
  const totals = gains.some((g) => g === undefined);
  return {
    chart: {
      kind: 'bar',
      title: totals ? 'Total views by platform' : 'Views gained by platform',
      categories: platforms.map((p) => PLATFORM_NAMES[p] ?? p),
      series: [
        {
          name: totals ? 'Total views' : 'Views gained',
          values: platforms.map((p, i) =>
            totals ? (analytics.byPlatform[p]?.totalViews ?? 0) : (gains[i] ?? 0),
          ),
        },
      ],
      unit: 'views',
      xLabel: 'Platform',
    },
    totals,
  };
}

function topPostsTable(top: Analytics['topPosts']): Table {
  return {
    caption: 'Top posts',
    columns: [{ label: 'Post' }, { label: 'Platform' }, { label: 'Views' }],
    rows: top.map((p) => {
      const title = p.title || 'Untitled';
      return [
        p.postUrl ? link(title, p.postUrl) : literal(title),
        platformName(p.platform),
        { value: p.views, text: count(p.views) },
      ];
    }),
  };
}
