/**
 * `series episodes <s> [--page N]`: the series' episodes, newest first, with their status, scheduled time in
 * the caller's zone and video id; Older/Newer buttons page through them.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { type ActionSpec, defineCommand } from '../../parse/command-spec.js';
import { SERIES_OPTION } from '../../parse/shared-options.js';
import { formatWhen } from '../../series/cadence.js';
import { clip, getSeriesById, joinValue, splitValue } from '../../series/series-common.js';
import type { Card, Control, Section } from '../../text/cards.js';
import { type CardText, code, command, hole, literal, md } from '../../text/text.js';
import { resolveSeries } from '../../video-api/references.js';
import type { Episode } from '../../video-api/video-api.js';

export const EPISODES_PAGE = 'series.episodes.page';
const PAGE_SIZE = 10;

const STATUS_ICON: Record<string, CardText> = {
  posted: md`✅`,
  scheduled: md`🗓️`,
  generating: md`⏳`,
  processing: md`⏳`,
  pending: md`⏳`,
  failed: md`❌`,
  cancelled: md`🚫`,
};

export const episodesCommand = defineCommand({
  name: 'series episodes',
  summary: 'List the episodes of a series, newest first',
  options: [
    SERIES_OPTION,
    { name: 'page', kind: 'int', min: 1, max: 10_000, description: 'Page number (10 per page)' },
  ],
  examples: ['series episodes "Night Terrors"', 'series episodes last --page 2'],
  async run(ctx, args) {
    const ref = await resolveSeries(ctx, args.series);
    const card = await episodesCard(ctx, { id: ref.id, name: ref.name }, args.page ?? 1);
    return { kind: 'message', visibility: 'ephemeral', card };
  },
});

async function episodesCard(
  ctx: CommandContext,
  series: { id: string; name: string },
  page: number,
): Promise<Card> {
  const api = await ctx.api();
  const { items, pagination } = await api.series.episodes(series.id, {
    page,
    limit: PAGE_SIZE,
  });
  const zone = await ctx.timeZone();
  const total = pagination.total;
  const pages = Math.max(1, Math.ceil(total / (pagination.limit || PAGE_SIZE)));
  const title = md`Episodes of “${literal(clip(series.name, 80))}”`;
  if (items.length === 0) {
    return {
      title,
      tone: 'info',
      text:
        total === 0
          ? md`No episodes yet. The first one is generated right after the series is created, then one per posting slot; run ${command('series generate', [series.id])} to make one now.`
          : md`There is no page ${page}: ${total} episode${total === 1 ? md`` : md`s`} fit on ${pages} page${pages === 1 ? md`` : md`s`}.`,
      ...(total > 0 ? { controls: [pageButton(series.id, pages, 'Last page')] } : {}),
    };
  }
  const controls: Control[] = [];
  if (page > 1) controls.push(pageButton(series.id, Math.min(page - 1, pages), '← Newer'));
  if (page < pages) controls.push(pageButton(series.id, page + 1, 'Older →'));
  // One section per episode, so each carries a button to its video's details (the videos group's `video.show`).
  const sections: Section[] = items.map((e) => ({
    text: line(e, zone),
    ...(e.projectId
      ? { controls: [{ kind: 'button', action: 'video.show', value: e.projectId, label: 'Open' }] }
      : {}),
  }));
  return {
    title,
    tone: 'neutral',
    sections,
    ...(controls.length ? { controls } : {}),
    context: md`Page ${page} of ${pages} · ${total} episode${total === 1 ? md`` : md`s`} · times in ${literal(zone)} · ${command('status', [hole('video id')])} follows one`,
  };
}

function line(e: Episode, zone: string): CardText {
  const icon = STATUS_ICON[e.status] ?? md`•`;
  const when = e.scheduledTime
    ? literal(formatWhen(e.scheduledTime, zone).replace(` (${zone})`, ''))
    : md`no time yet`;
  const video = e.projectId ? md`video ${code(e.projectId)}` : md`_video not created yet_`;
  return md`${icon} **${literal(e.status)}** · ${when} · ${video}`;
}

const pageButton = (seriesId: string, page: number, label: string): Control => ({
  kind: 'button',
  action: EPISODES_PAGE,
  value: joinValue(seriesId, String(page)),
  label,
});

/** Older/Newer (and the series card's Episodes button): re-reads with the clicker's key, replaces the card. */
export const episodesPageAction: ActionSpec = {
  action: EPISODES_PAGE,
  async run(ctx, value) {
    const [seriesId, pageText] = splitValue(value);
    const page = Number(pageText);
    if (!seriesId || !Number.isSafeInteger(page) || page < 1) throw userError('interaction-expired');
    const series = await getSeriesById(ctx, seriesId);
    return { kind: 'update', card: await episodesCard(ctx, { id: series.id, name: series.name }, page) };
  },
};
