/**
 * `series edit <s> --field value…`: changes only the fields given (PATCH). Every value is checked before
 * anything is sent; the reply lists what changed, in words.
 */
import { type CommandSpec, defineCommand } from '../../command-spec.js';
import { userError } from '../../context.js';
import { refreshSeriesWatches } from '../../live/series-watcher.js';
import { resolveSeries } from '../../references.js';
import type { SeriesPatch } from '../../video-api.js';
import { describeDays, type Weekday } from './schedule.js';
import { checked, episodeCost, voiceName } from './series-common.js';
import {
  FIELD_LABELS,
  SERIES_FIELD_OPTIONS,
  type SeriesFieldArgs,
  SOURCE_DESCRIPTION,
  seriesFieldsFrom,
} from './series-fields.js';

/** Changing these moves the posting slots: the watcher re-reads them. */
const CADENCE_FIELDS = ['autoPostTime', 'postingDays', 'timezone', 'paused'] as const;

export const editCommand: CommandSpec = defineCommand({
  name: 'series edit',
  summary: 'Change a series: only the options you give change',
  options: [
    {
      name: 'series',
      kind: 'series',
      positional: true,
      required: true,
      description: 'Series name, id or `last`',
    },
    { name: 'name', kind: 'string', maxLength: 120, description: 'New name' },
    { name: 'source', kind: 'string', description: SOURCE_DESCRIPTION },
    ...SERIES_FIELD_OPTIONS,
    { name: 'paused', kind: 'boolean', description: 'Pause (yes) or resume (no)' },
  ],
  examples: [
    'series edit "Night Terrors" --time 18:00 --days mon,wed,fri',
    'series edit last --model motion_lite --voice Marcus',
    'series edit "Money Minute" --schedule "weekdays 7am America/New_York"',
  ],
  details:
    'Options are those of `series create`, plus `--name` and `--paused yes|no`. `--days daily` posts every day.',
  async run(ctx, args) {
    const fields = await checked(editCommand, async () => {
      const patch: SeriesPatch = await seriesFieldsFrom(ctx, args as SeriesFieldArgs, 'edit');
      if (args.name !== undefined) patch.name = args.name;
      if (args.paused !== undefined) patch.paused = args.paused;
      if (Object.keys(patch).length === 0) throw userError('series-nothing-to-change');
      return patch;
    });
    if (!fields.ok) return fields.response;
    const patch = fields.value;
    const ref = await resolveSeries(ctx, args.series);

    await ctx.api().series.update(ref.id, patch);
    if (CADENCE_FIELDS.some((f) => f in patch)) {
      ctx.deps.store.transaction(() => refreshSeriesWatches(ctx.deps.store, ref.id, ctx.now()));
    }
    const lines: string[] = [];
    for (const [field, value] of Object.entries(patch)) {
      if (field === 'postingDays' || field === 'timezone') continue;
      lines.push(`• ${FIELD_LABELS[field] ?? field} → ${await shown(field, value)}`);
    }
    if (patch.postingDays || patch.timezone) {
      const days = patch.postingDays as Weekday[] | undefined;
      if (days) lines.push(`• posting days → ${describeDays(days)}`);
      if (patch.timezone) lines.push(`• time zone → ${patch.timezone}`);
    }
    return {
      kind: 'message',
      visibility: 'channel',
      card: {
        title: `Updated “${patch.name ?? ref.name}”`,
        tone: 'success',
        text: lines.join('\n'),
        context: `${ctx.req.userName ? `Changed by ${ctx.req.userName} · ` : ''}id \`${ref.id}\` · \`/reel series show ${ref.id}\``,
      },
    };

    async function shown(field: string, value: unknown): Promise<string> {
      if (field === 'voice' && typeof value === 'string') return voiceName(ctx, value);
      if (field === 'brollModel' && typeof value === 'string') {
        const cost = await episodeCost(ctx, value);
        return cost === undefined ? value : `${value} (${cost} credits per episode from the next one)`;
      }
      if (field === 'paused') return value ? 'yes (no new episodes)' : 'no (episodes on schedule)';
      if (field === 'duration') return `${String(value)} s`;
      if (typeof value === 'boolean') return value ? 'on' : 'off';
      if (Array.isArray(value)) return value.join(', ');
      return String(value).length > 120 ? `${String(value).slice(0, 119)}…` : String(value);
    }
  },
});
