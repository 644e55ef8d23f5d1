/**
 * Pausing and resuming (PATCH paused), shared by `series pause|resume` and their buttons. The reply goes to
 * the channel: the whole team's series stops or restarts, so everyone should see who did it.
 */
import type { Response } from '../../cards.js';
import type { ActionSpec } from '../../command-spec.js';
import { type CommandContext, userError } from '../../context.js';
import { refreshSeriesWatches } from '../../live/series-watcher.js';
import type { Ref } from '../../references.js';
import { VideoApiError } from '../../video-api.js';
import { describeSchedule } from './schedule.js';
import { cadenceOf, getSeriesById, nextPostText } from './series-common.js';

export async function setPaused(ctx: CommandContext, ref: Ref, paused: boolean): Promise<Response> {
  try {
    await ctx.api().series.update(ref.id, { paused });
  } catch (e) {
    if (e instanceof VideoApiError && e.type === 'not_found') {
      throw userError('not-found-series', { ref: ref.name });
    }
    throw e;
  }
  ctx.deps.store.transaction(() => refreshSeriesWatches(ctx.deps.store, ref.id, ctx.now()));
  const by = ctx.req.userName ? ` by ${ctx.req.userName}` : '';
  if (paused) {
    return {
      kind: 'message',
      visibility: 'channel',
      card: {
        title: `⏸️ Paused “${ref.name}”`,
        tone: 'warning',
        text:
          'No new episodes will be generated or charged until it is resumed. ' +
          'Episodes already generated keep their scheduled posts.',
        controls: [
          { kind: 'button', action: 'series.resume', value: ref.id, label: 'Resume', style: 'primary' },
        ],
        context: `Paused${by} · id \`${ref.id}\``,
      },
    };
  }
  // The schedule makes "resumed" concrete; if it cannot be read the resume still stands.
  const series = await getSeriesById(ctx, ref.id).catch(() => undefined);
  const next = series && nextPostText(ctx, { ...series, paused: false });
  return {
    kind: 'message',
    visibility: 'channel',
    card: {
      title: `▶️ Resumed “${ref.name}”`,
      tone: 'success',
      text:
        'Episodes are generated on schedule again, each charged when generated.' +
        (series ? `\n**Schedule:** ${describeSchedule(cadenceOf(series))}` : '') +
        (next ? `\n**Next post:** ${next}` : ''),
      controls: [{ kind: 'button', action: 'series.pause', value: ref.id, label: 'Pause' }],
      context: `Resumed${by} · id \`${ref.id}\``,
    },
  };
}

/** The Pause/Resume buttons carry the series id; the name is re-read with the clicker's key. */
const pausedAction = (action: string, paused: boolean): ActionSpec => ({
  action,
  async run(ctx, value) {
    const series = await getSeriesById(ctx, value);
    return setPaused(ctx, { id: series.id, name: series.name }, paused);
  },
});

export const pauseAction = pausedAction('series.pause', true);
export const resumeAction = pausedAction('series.resume', false);
