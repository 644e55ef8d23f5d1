/**
 * Starting and stopping the live status card of a video in a conversation: the card, its watch and the
 * caller's `last` video are written in one transaction, so a crash never leaves a card nobody updates.
 */
import type { CommandContext } from '../dispatch/context.js';
import { unpostableNotice, videoCardKey } from '../live/live-card.js';
import { showVideo, videoState } from '../live/projections.js';
import { onClock } from '../live/service-time.js';
import type { VideoCardModel } from '../live/video-card.js';
import type { Store, UserAddress, Watch } from '../ports/index.js';
import { command, md } from '../text/text.js';

/** Generation watches give up after this long (DESIGN §4; the card then says how to look again). */
export const GENERATION_WATCH_MS = 6 * 3600_000;
/** Renders take under two minutes (spec §4); an hour covers a very slow service. */
export const RENDER_WATCH_MS = 3600_000;
/** First look at a new job (the service's time): the API advises status every 10–30 s, renders every 5–15 s. */
const FIRST_CHECK_MS: Record<'generation' | 'render', number> = { generation: 10_000, render: 5_000 };

/**
 * Shows the video's live card in the caller's conversation (projections.ts) and watches its generation: one
 * watch per video, whatever the number of conversations showing it. Idempotent: when the generation is
 * already watched (a double click, a repeated `status`, another channel), the card is shown here on the state
 * the watch keeps, so it never regresses to an older snapshot.
 */
export async function trackGeneration(
  ctx: CommandContext,
  model: VideoCardModel,
  options: { justCreated?: boolean; requester?: UserAddress } = {},
): Promise<{ cardKey: string; started: boolean }> {
  const store = ctx.deps.store;
  const conversation = ctx.req.conversation;
  const cardKey = videoCardKey(model.videoId, conversation);
  const now = ctx.now();
  const started = await store.transaction(async () => {
    await store.users.setLast(ctx.req.user, 'video', model.videoId);
    const watching = await store.watches.findActive('generation', model.videoId);
    // Already followed (here or elsewhere): the card comes to life here too, on the state the watch keeps.
    // Otherwise this read goes over what every card shows (its kind, credits, approval…), a stale note off.
    const stored = await videoState(store, model.videoId);
    const fresh: VideoCardModel = stored ? { ...stored, ...model } : model;
    delete fresh.notice;
    await showHere(ctx, { model: fresh, watching: watching !== undefined, now });
    if (watching) return false;
    await store.watches.add({
      kind: 'generation',
      target: model.videoId,
      owner: await ctx.keyOwner(),
      conversation,
      cardKey,
      state: {
        name: model.name,
        // Pinged when it is ready or fails: who asked, also when an approver's click created it.
        requester: options.requester ?? ctx.req.user,
        samples: [],
        lastStep: -1,
        phase: 'generating',
        // Created just now by this bot: generation started now, which gives the first look a rate.
        ...(options.justCreated ? { startedAt: now } : {}),
      },
      nextCheckAt: now + onClock(FIRST_CHECK_MS.generation, ctx.deps.serviceSpeed),
      expiresAt: now + (ctx.deps.watchMaxAgeMs ?? GENERATION_WATCH_MS),
    });
    return true;
  });
  return { cardKey, started };
}

/** Watches a render (one watch per render) and shows the video's live card in the caller's conversation. */
export async function trackRender(
  ctx: CommandContext,
  input: { model: VideoCardModel; renderId: string; codec: string },
): Promise<{ cardKey: string; started: boolean }> {
  const store = ctx.deps.store;
  const conversation = ctx.req.conversation;
  const cardKey = videoCardKey(input.model.videoId, conversation);
  const now = ctx.now();
  const started = await store.transaction(async () => {
    await store.users.setLast(ctx.req.user, 'video', input.model.videoId);
    // The same render replayed by its idempotency key (double click) is already being watched.
    const watching = await store.watches.findActive('render', input.renderId);
    const model: VideoCardModel = {
      ...input.model,
      render: { renderId: input.renderId, status: 'in-progress', progress: 0, codec: input.codec },
    };
    delete model.notice;
    await showHere(ctx, { model, watching: watching !== undefined, now });
    if (watching) return false;
    await store.watches.add({
      kind: 'render',
      target: input.renderId,
      owner: await ctx.keyOwner(),
      conversation,
      cardKey,
      state: {
        videoId: input.model.videoId,
        name: input.model.name,
        codec: input.codec,
        requester: ctx.req.user,
        samples: [],
        lastStep: -1,
        ...(input.model.render?.url ? { previousUrl: input.model.render.url } : {}),
      },
      nextCheckAt: now + onClock(FIRST_CHECK_MS.render, ctx.deps.serviceSpeed),
      expiresAt: now + RENDER_WATCH_MS,
    });
    return true;
  });
  return { cardKey, started };
}

/**
 * Shows the video's live card in the caller's conversation: on the state a running watch keeps (`watching`),
 * else on `model`. The caller is told privately if the platform refuses the post.
 */
async function showHere(
  ctx: CommandContext,
  input: { model: VideoCardModel; watching: boolean; now: number },
): Promise<void> {
  await showVideo(ctx.deps.store, {
    model: input.model,
    conversation: ctx.req.conversation,
    now: input.now,
    keepState: input.watching,
    onUnpostable: unpostableNotice(ctx.req.user, md`run ${command('status', [input.model.videoId])}`),
  });
}

/** Every active watch about one video (its generation, renders, schedule), in any conversation. */
export async function watchesOfVideo(store: Store, videoId: string): Promise<Watch[]> {
  return (await store.watches.active()).filter(
    (w) =>
      (w.kind === 'generation' || w.kind === 'render' || w.kind === 'schedule') &&
      (w.target === videoId || w.state.videoId === videoId),
  );
}

export const asRecord = (model: VideoCardModel): Record<string, unknown> =>
  model as unknown as Record<string, unknown>;
