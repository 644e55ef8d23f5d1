/**
 * `series delete <s>`: a danger confirmation first; the click deletes (DELETE /series/{id}), which stops
 * every future episode and keeps the videos already generated, and stops following it here. Deleting
 * stops the series' posts for good, so it takes the `publish` role (asked again on the click: whoever clicks
 * is re-authorised).
 */
import { checkRole } from '../../approvals/roles.js';
import { UserError } from '../../dispatch/context.js';
import { fromCard, onCard, oneShot } from '../../dispatch/one-shot.js';
import { newRequestId } from '../../dispatch/request-id.js';
import { unwatchSeries } from '../../live/series-watcher.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { referenceCommand } from '../../parse/reference-command.js';
import { getSeriesById } from '../../series/series-common.js';
import type { Response } from '../../text/cards.js';
import { isNotFound } from '../../text/not-found.js';
import { code, command, literal, md } from '../../text/text.js';
import { VideoApiError } from '../../video-api/video-api.js';

export const DELETE_CONFIRM = 'series.delete.confirm';
export const DELETE_CANCEL = 'series.delete.cancel';

export const deleteCommand = referenceCommand('series', {
  name: 'series delete',
  summary: 'Delete a series (asks first); videos it already generated are kept',
  examples: ['series delete "Night Terrors"'],
  role: 'publish',
  async run(ctx, ref) {
    // The count makes "kept" concrete; without it the question still stands.
    const api = await ctx.api();
    const episodes = await api.series
      .episodes(ref.id, { page: 1, limit: 1 })
      .then((p) => p.pagination.total)
      .catch((e: unknown) => {
        if (e instanceof VideoApiError) return undefined;
        throw e;
      });
    const kept =
      episodes === undefined
        ? md`Videos it already generated are kept`
        : episodes === 0
          ? md`It has no episodes yet`
          : md`The ${episodes} video${episodes === 1 ? md`` : md`s`} it already generated ${episodes === 1 ? md`is` : md`are`} kept`;
    // Both buttons name this card: it is answered once (one-shot.ts).
    const value = onCard(ref.id, newRequestId());
    return {
      kind: 'message',
      visibility: 'ephemeral',
      card: {
        title: md`Delete series “${literal(ref.name)}”?`,
        tone: 'danger',
        text: md`This stops every future episode for good. ${kept}, with their scheduled posts. There is no undo.`,
        controls: [
          { kind: 'button', action: DELETE_CONFIRM, value, label: 'Delete series', style: 'danger' },
          { kind: 'button', action: DELETE_CANCEL, value, label: 'Cancel' },
        ],
        context: md`series \`${literal(ref.id)}\``,
      },
    };
  },
});

const questionCard = (value: string): string | undefined => {
  const { card } = fromCard(value);
  return card === undefined ? undefined : `series.delete:${card}`;
};

export const deleteConfirmAction: ActionSpec = oneShot({
  action: DELETE_CONFIRM,
  card: questionCard,
  async run(ctx, value): Promise<Response> {
    const seriesId = fromCard(value).subject;
    await checkRole(ctx, 'publish');
    let name = seriesId;
    try {
      name = (await getSeriesById(ctx, seriesId)).name;
      const api = await ctx.api();
      await api.series.delete(seriesId);
    } catch (e) {
      // A second click, or someone else was faster: the outcome is the one asked for.
      const gone = isNotFound(e) || (e instanceof UserError && e.code === 'not-found-series');
      if (!gone) throw e;
      return {
        kind: 'update',
        card: {
          title: md`Already deleted`,
          tone: 'neutral',
          text: md`That series no longer exists.`,
          context: md`series \`${literal(seriesId)}\``,
        },
      };
    }
    const { store } = ctx.deps;
    await store.transaction(async () => {
      await unwatchSeries(store, seriesId, ctx.req.conversation);
      await store.subscriptions.remove(ctx.req.conversation, 'series', seriesId);
      await store.audit.record({
        at: ctx.now(),
        conversation: ctx.req.conversation,
        actor: ctx.req.user,
        action: 'series.delete',
        seriesId,
        details: { name },
      });
    });
    return {
      kind: 'update',
      card: {
        title: md`Deleted series “${literal(name)}”`,
        tone: 'success',
        text: md`No more episodes will be generated or charged. Videos it already generated are kept; find them with ${command('videos')}.`,
        context: md`${ctx.req.userName ? md`Deleted by ${literal(ctx.req.userName)} · ` : md``}series ${code(seriesId)}`,
      },
    };
  },
});

export const deleteCancelAction: ActionSpec = oneShot({
  action: DELETE_CANCEL,
  card: questionCard,
  run() {
    return {
      kind: 'update',
      card: { title: md`Not deleted`, tone: 'neutral', text: md`The series keeps running.` },
    };
  },
});
