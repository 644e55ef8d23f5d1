/**
 * `rename <video> <name>`: PATCH the name (max 120), and retitle this channel's status card.
 */
import { guardContentChange, withContentNote } from '../../approvals/content-guard.js';
import { videoCardKey } from '../../live/live-card.js';
import { updateVideoCard } from '../../live/projections.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { message } from '../../text/cards.js';
import { code, literal, md } from '../../text/text.js';
import { resolveVideo } from '../../video-api/references.js';
import { NAME_MAX } from '../../videos/create-request.js';

export const renameCommand: CommandSpec = defineCommand({
  name: 'rename',
  summary: 'Rename a video',
  options: [
    {
      name: 'video',
      kind: 'video',
      positional: true,
      required: true,
      description: 'Video id, name prefix or `last`',
    },
    {
      name: 'name',
      kind: 'string',
      positional: true,
      rest: true,
      required: true,
      maxLength: NAME_MAX,
      description: 'The new name (up to 120 characters)',
    },
  ],
  examples: ['rename last Octopus facts, part 2', 'rename "Octopus facts" "Eight arms, three hearts"'],
  async run(ctx, args) {
    const ref = await resolveVideo(ctx, args.video);
    // Under approval, renaming a video whose post waits (or is scheduled) is itself checked.
    const guard = await guardContentChange(ctx, { videoId: ref.id, change: { kind: 'name' } });
    const api = await ctx.api();
    const updated = await api.videos.update(ref.id, { name: args.name });
    const store = ctx.deps.store;
    const key = videoCardKey(ref.id, ctx.req.conversation);
    await store.transaction(async () => {
      await store.users.setLast(ctx.req.user, 'video', ref.id);
      await updateVideoCard(store, ref.id, {
        patch: { name: updated.name },
        dedupeKey: `${key}:rename:${ctx.now()}`,
      });
    });
    const note = await guard.settle();
    return message({
      title: md`Renamed`,
      tone: 'success',
      text: withContentNote(md`“${literal(ref.name)}” is now “${literal(updated.name)}”.`, note) ?? md``,
      context: md`id ${code(ref.id)}`,
    });
  },
});
