/**
 * `delete <video>`: a confirm card first (danger button with a confirm dialog: no refund). Confirming deletes
 * the video, stops every watch about it and turns its status cards into a tombstone, in one transaction.
 */
import { checkRole } from '../../approvals/roles.js';
import { userError } from '../../dispatch/context.js';
import { fromCard, onCard, oneShot } from '../../dispatch/one-shot.js';
import { newRequestId } from '../../dispatch/request-id.js';
import { displayName } from '../../format/video.js';
import { updateVideoCard } from '../../live/projections.js';
import type { ActionSpec, CommandSpec } from '../../parse/command-spec.js';
import { referenceCommand } from '../../parse/reference-command.js';
import { message, type Response } from '../../text/cards.js';
import { isNotFound } from '../../text/not-found.js';
import { literal, md } from '../../text/text.js';
import { watchesOfVideo } from '../../videos/tracking.js';

export const deleteCommand: CommandSpec = referenceCommand('video', {
  name: 'delete',
  summary: 'Delete a video permanently (asks first; no credit refund)',
  examples: ['delete Octopus facts', 'delete last'],
  role: 'publish',
  run(_ctx, ref) {
    // Both buttons name this card: it is answered once (one-shot.ts).
    const value = onCard(ref.id, newRequestId());
    return message({
      title: md`Delete “${literal(ref.name)}”?`,
      tone: 'danger',
      text: md`This permanently deletes the video and its generated assets. **Credits are not refunded.** Scheduled posts of it will not go out.`,
      controls: [
        {
          kind: 'button',
          action: 'video.delete.confirm',
          value,
          label: 'Delete',
          style: 'danger',
          confirm: {
            title: md`Delete this video?`,
            text: md`“${literal(ref.name)}” and its assets will be gone for good. No credits are refunded.`,
            confirm: 'Delete',
            deny: 'Keep it',
          },
        },
        { kind: 'button', action: 'video.delete.cancel', value, label: 'Keep it' },
      ],
      context: md`id \`${literal(ref.id)}\``,
    });
  },
});

const questionCard = (value: string): string | undefined => {
  const { card } = fromCard(value);
  return card === undefined ? undefined : `video.delete:${card}`;
};

export const deleteConfirmAction: ActionSpec = oneShot({
  action: 'video.delete.confirm',
  card: questionCard,
  async run(ctx, value): Promise<Response> {
    const videoId = fromCard(value).subject;
    if (!videoId) throw userError('bad-button');
    await checkRole(ctx, 'publish');
    const api = await ctx.api();
    let name: string;
    try {
      name = (await api.videos.get(videoId)).name;
      await api.videos.delete(videoId);
    } catch (error) {
      // A second click, or a video of another team (the clicker is re-authorised with their own key): nothing
      // here is touched, since watches and cards may belong to a team this clicker cannot see.
      if (isNotFound(error)) {
        return {
          kind: 'update',
          card: {
            title: md`Nothing to delete`,
            tone: 'neutral',
            text: md`That video no longer exists in your team (already deleted?).`,
            context: md`id \`${literal(videoId)}\``,
          },
        };
      }
      throw error;
    }
    const store = ctx.deps.store;
    const who = displayName(ctx.req);
    await store.transaction(async () => {
      for (const watch of await watchesOfVideo(store, videoId))
        await store.watches.update(watch.id, { status: 'done' });
      // Every conversation showing the video gets the tombstone.
      await updateVideoCard(store, videoId, {
        patch: { deletedBy: who },
        dedupeKey: `video:${videoId}:deleted`,
      });
      await store.audit.record({
        at: ctx.now(),
        conversation: ctx.req.conversation,
        actor: ctx.req.user,
        action: 'video.delete',
        videoId,
        // The service forgets the name with the video: the audit keeps it to say what was deleted.
        ...(name ? { details: { videoName: name } } : {}),
      });
    });
    return {
      kind: 'update',
      card: {
        title: md`Deleted “${literal(name)}”`,
        tone: 'neutral',
        text: md`The video and its generated assets are gone. No credits were refunded.`,
        context: md`id \`${literal(videoId)}\``,
      },
    };
  },
});

export const deleteCancelAction: ActionSpec = oneShot({
  action: 'video.delete.cancel',
  card: questionCard,
  run(_ctx, value): Response {
    const videoId = fromCard(value).subject;
    return {
      kind: 'update',
      card: {
        title: md`Not deleted`,
        tone: 'neutral',
        text: md`The video was kept.`,
        context: md`id \`${literal(videoId)}\``,
      },
    };
  },
});
