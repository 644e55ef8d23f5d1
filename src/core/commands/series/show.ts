/** `series show <s>`: the full configuration, the voice by name, the schedule in words and the next post. */

import type { CommandContext } from '../../dispatch/context.js';
import { referenceCommand } from '../../parse/reference-command.js';
import { budgetField } from '../../series/pace.js';
import { configFields, getSeriesById } from '../../series/series-common.js';
import type { Card, Control } from '../../text/cards.js';
import { code, command, literal, md } from '../../text/text.js';
import type { Series } from '../../video-api/video-api.js';
import { resumeButton } from './set-paused.js';

export const showCommand = referenceCommand('series', {
  name: 'series show',
  summary: 'Show a series: settings, voice, schedule and next post time',
  examples: ['series show "Night Terrors"', 'series show last'],
  async run(ctx, ref) {
    const series = await getSeriesById(ctx, ref.id);
    return { kind: 'message', visibility: 'ephemeral', card: await seriesCard(ctx, series) };
  },
});

export async function seriesCard(ctx: CommandContext, series: Series): Promise<Card> {
  const controls: Control[] = [
    series.paused
      ? resumeButton(series.id)
      : { kind: 'button', action: 'series.pause', value: series.id, label: 'Pause' },
    { kind: 'button', action: 'series.generate', value: series.id, label: 'Generate episode now' },
    { kind: 'button', action: 'series.episodes.page', value: `${series.id}:1`, label: 'Episodes' },
  ];
  const budget = await budgetField(ctx, series);
  return {
    title: literal(series.name),
    tone: series.paused ? 'warning' : 'info',
    ...(series.paused ? { text: md`Paused: no new episodes are generated until it is resumed.` } : {}),
    fields: [...(await configFields(ctx, series, true)), ...(budget ? [budget] : [])],
    controls,
    context: md`id ${code(series.id)}${series.createdAt ? md` · created ${literal(series.createdAt.slice(0, 10))}` : md``} · change it with ${command('series edit', [series.id], { time: '18:00' })}`,
  };
}
