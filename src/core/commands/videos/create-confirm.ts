/**
 * The Create / Cancel buttons of the create confirm card. Create charges through POST /videos with one
 * idempotency key per request (a double click or a retry charges once), then posts the live status card and
 * starts watching, in one transaction. Only the person who asked can answer.
 */

import { needsApproval } from '../../approvals/policy.js';
import { requestApproval } from '../../approvals/request.js';
import { checkRole } from '../../approvals/roles.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import { oneShot } from '../../dispatch/one-shot.js';
import { keepPending, loadPending } from '../../dispatch/pending-request.js';
import { type RemoteEffect, remoteEffect } from '../../effects/remote-effect.js';
import { displayName, excerpt } from '../../format/video.js';
import { lookSoonAtBalance } from '../../live/balance-watcher.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import type { Card, Response } from '../../text/cards.js';
import { literal, md } from '../../text/text.js';
import { VideoApiError } from '../../video-api/video-api.js';
import {
  displayedName,
  type PendingCreate,
  REQUEST_TTL_MS,
  requestKey,
} from '../../videos/create-request.js';
import { trackGeneration } from '../../videos/tracking.js';

/** The pending create `id` of this conversation, asked by this member unless `anyone` may answer it. */
export const loadRequest = (
  ctx: CommandContext,
  id: string,
  options: { anyone?: boolean } = {},
): Promise<PendingCreate> =>
  loadPending<PendingCreate>(ctx, requestKey(id), {
    ...options,
    accepts: (p) => p.type === 'create-request',
  });

const saveRequest = (ctx: CommandContext, id: string, kept: { pending: PendingCreate; card: Card }) =>
  keepPending(ctx, requestKey(id), kept);

const creatingCard = (p: PendingCreate): Card => ({
  title: md`Creating “${literal(p.videoName ?? displayedName(p.input))}”…`,
  tone: 'progress',
  text: md`Charged ${p.cost} credits. The status card is posted in this channel and follows the video: progress, then thumbnails to pick from, then Render.`,
  context: md`id \`${literal(String(p.videoId))}\``,
});

const cancelledCard = (p: PendingCreate): Card => ({
  title: md`Not created: “${literal(displayedName(p.input))}”`,
  tone: 'neutral',
  text: md`Cancelled. Nothing was charged.`,
});

/** The confirm card Create and Cancel belong to: one request, answered once (one-shot.ts). */
export const requestCard = (id: string): string | undefined => (id ? `video.create:${id}` : undefined);

/**
 * Clicks on the same card that arrive while one is in flight share its outcome (one-shot.ts): with the
 * idempotency key this is belt and braces, so even a service that raced two identical requests would see only one.
 */
export const createConfirmAction: ActionSpec = oneShot({
  action: 'video.create.confirm',
  card: requestCard,
  run: (ctx, id) => confirm(ctx, id),
});

async function confirm(ctx: CommandContext, id: string): Promise<Response> {
  const pending = await loadRequest(ctx, id);
  if (pending.state === 'created') return { kind: 'update', card: creatingCard(pending) };
  if (pending.state === 'cancelled') return { kind: 'update', card: cancelledCard(pending) };
  if (ctx.now() - pending.createdAt > REQUEST_TTL_MS) {
    throw userError('request-expired', { minutes: REQUEST_TTL_MS / 60_000, command: 'create' });
  }
  await checkRole(ctx, 'spend');
  const idempotencyKey = await ctx.deps.store.idempotency.keyFor(`create:${id}`);
  if (await needsApproval(ctx, { kind: 'spend', credits: pending.cost })) {
    const sent = await requestApproval(ctx, {
      command: 'create',
      args: { requestId: id, cost: pending.cost },
      idempotencyKey,
      summary: md`Create “${literal(displayedName(pending.input))}” (${pending.cost} credits)`,
      fields: [
        { label: md`Cost`, value: md`${pending.cost} credits`, short: true },
        {
          label: md`Balance`,
          value: md`${pending.balance} → ${pending.balance - pending.cost}`,
          short: true,
        },
        { label: md`Model`, value: literal(pending.input.model ?? 'storyboard'), short: true },
        { label: md`Voice`, value: literal(pending.voiceLabel), short: true },
        { label: md`Script`, value: literal(excerpt(pending.input.script, 280)) },
      ],
    });
    return sent.kind === 'message' ? { kind: 'update', card: sent.card } : sent;
  }
  return charge(ctx, { id, pending, idempotencyKey });
}

/**
 * Runs a create someone asked for and an approver agreed to (DESIGN §5): the approver's key, the request's
 * stored idempotency key, then the same card and watch as a direct create. A request already created answers
 * its card again; a cancelled one is refused.
 */
export async function approveCreate(ctx: CommandContext, id: string, idempotencyKey: string): Promise<Card> {
  const pending = await loadRequest(ctx, id, { anyone: true });
  if (pending.state === 'cancelled') throw userError('approval-create-cancelled');
  if (pending.state === 'created') return creatingCard(pending);
  const done = await charge(ctx, { id, pending, idempotencyKey });
  return done.kind === 'update' ? done.card : creatingCard(pending);
}

/** POST /videos, then the status card and its watch, as one pending effect (a failed commit is replayed). */
async function charge(
  ctx: CommandContext,
  { id, pending, idempotencyKey }: { id: string; pending: PendingCreate; idempotencyKey: string },
): Promise<Response> {
  const api = await ctx.api();
  const effect: RemoteEffect = {
    command: 'create',
    args: { requestId: id },
    idempotencyKey,
    what: `the new video “${literal(displayedName(pending.input))}”`,
  };
  const done = await remoteEffect(ctx, effect, {
    send: async () => {
      try {
        return await api.videos.create(pending.input, { idempotencyKey });
      } catch (error) {
        if (error instanceof VideoApiError && error.type === 'insufficient_credits') {
          // The balance moved since the confirm card; show the real one. Nothing was charged or created.
          const balance = await api.me
            .get()
            .then((me) => me.team.credits)
            .catch(() => undefined);
          throw userError('api.insufficient_credits', {
            cost: pending.cost,
            ...(balance === undefined ? {} : { balance }),
          });
        }
        throw error;
      }
    },
    commit: (created) => recordCreate(ctx, { id, pending, created }),
  });
  return { kind: 'update', card: creatingCard(done) };
}

/** The request marked created, the status card, its watch and the audit entry: the local record of a create. */
async function recordCreate(
  ctx: CommandContext,
  r: {
    id: string;
    pending: PendingCreate;
    created: { id: string; name: string; model?: string; creditsUsed?: number };
  },
): Promise<PendingCreate> {
  const { id, pending, created } = r;
  const done: PendingCreate = { ...pending, state: 'created', videoId: created.id, videoName: created.name };
  await saveRequest(ctx, id, { pending: done, card: creatingCard(done) });
  const { started } = await trackGeneration(
    ctx,
    {
      videoId: created.id,
      name: created.name || displayedName(pending.input),
      kind: 'video',
      requestedBy: pending.requesterName ?? displayName(ctx.req),
      model: created.model ?? pending.input.model ?? 'storyboard',
      credits: created.creditsUsed ?? pending.cost,
      phase: 'generating',
      percent: 0,
    },
    { justCreated: true, requester: pending.requester },
  );
  if (started) {
    await ctx.deps.store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'video.create',
      videoId: created.id,
      credits: created.creditsUsed ?? pending.cost,
      details: {
        model: pending.input.model ?? 'storyboard',
        ...(pending.requester !== ctx.req.user ? { requester: pending.requester } : {}),
      },
    });
    await lookSoonAtBalance(ctx.deps.store, ctx.req.conversation, ctx.now());
  }
  return done;
}

export const createCancelAction: ActionSpec = oneShot({
  action: 'video.create.cancel',
  card: requestCard,
  async run(ctx, id): Promise<Response> {
    const pending = await loadRequest(ctx, id);
    if (pending.state === 'created') return { kind: 'update', card: creatingCard(pending) };
    const cancelled: PendingCreate = { ...pending, state: 'cancelled' };
    await saveRequest(ctx, id, { pending: cancelled, card: cancelledCard(cancelled) });
    return { kind: 'update', card: cancelledCard(cancelled) };
  },
});
