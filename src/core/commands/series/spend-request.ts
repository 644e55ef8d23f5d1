/**
 * A series spend waiting for its Confirm / Cancel click (`series create`, `series resume`, a model change in
 * `series edit`). The request is kept in the store as the model of a card that is never posted (key
 * `series-spend:<id>`), with the idempotency key minted when the card opened, so the buttons carry only the
 * short id and a double click, a retry or an approver's run sends one key. Only the person who asked answers.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { oneShot } from '../../dispatch/one-shot.js';
import { keepPending, loadPending } from '../../dispatch/pending-request.js';
import { newRequestId } from '../../dispatch/request-id.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { cancelledCard } from '../../series/spend-confirm.js';
import type { Card, Response } from '../../text/cards.js';
import { type CardText, md } from '../../text/text.js';
import type { SeriesInput, SeriesPatch } from '../../video-api/video-api.js';

export type SpendOp = 'create' | 'resume' | 'edit';

/** After this, prices or the balance may have moved: the user asks again (as for `create`). */
export const SPEND_REQUEST_TTL_MS = 30 * 60_000;

/** What each operation does once confirmed, as stored. */
export type SpendDraft =
  | { op: 'create'; input: SeriesInput; cost?: number }
  | { op: 'resume'; seriesId: string; name: string }
  | { op: 'edit'; seriesId: string; name: string; patch: SeriesPatch };

export type PendingSpend = SpendDraft & {
  type: 'series-spend';
  requester: string;
  requesterName?: string;
  idempotencyKey: string;
  createdAt: number;
  state: 'pending' | 'done' | 'cancelled';
  /** The outcome's card, answered again to a later click of the same card. */
  result?: Card;
};

/** How a confirmed request turned out: `done` once acted on, else an approval was asked for. */
export interface SpendOutcome {
  response: Response;
  done: boolean;
}

const KEY = (id: string) => `series-spend:${id}`;
export const confirmAction = (op: SpendOp) => `series.${op}.confirm`;
export const cancelAction = (op: SpendOp) => `series.${op}.cancel`;
const COMMAND: Record<SpendOp, string> = {
  create: 'series create',
  resume: 'series resume',
  edit: 'series edit',
};
const NOT_DONE: Record<SpendOp, CardText> = {
  create: md`No series was created`,
  resume: md`The series stays paused`,
  edit: md`The series was not changed`,
};

/**
 * Mints the request id the confirm card's buttons carry and keeps the request under it, with its key (given,
 * or derived from that id).
 */
export async function savePendingSpend(
  ctx: CommandContext,
  {
    draft,
    idempotencyKey,
    card,
  }: {
    draft: SpendDraft;
    idempotencyKey: string | ((id: string) => Promise<string>);
    /** The confirm card, given the request id its buttons carry. */
    card: (id: string) => Promise<Card>;
  },
): Promise<Card> {
  const id = newRequestId();
  const pending = {
    ...draft,
    type: 'series-spend',
    requester: ctx.req.user,
    ...(ctx.req.userName ? { requesterName: ctx.req.userName } : {}),
    idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : await idempotencyKey(id),
    createdAt: ctx.now(),
    state: 'pending',
  } satisfies PendingSpend;
  const shown = await card(id);
  await keepPending(ctx, KEY(id), { pending, card: shown });
  return shown;
}

const load = (ctx: CommandContext, op: SpendOp, id: string): Promise<PendingSpend> =>
  loadPending<PendingSpend>(ctx, KEY(id), { accepts: (p) => p.type === 'series-spend' && p.op === op });

const save = (ctx: CommandContext, id: string, kept: { pending: PendingSpend; card: Card }): Promise<void> =>
  keepPending(ctx, KEY(id), kept);

/** The Confirm / Cancel buttons of one operation; `run` acts on a confirmed request (or asks approval). */
export function spendActions(
  op: SpendOp,
  run: (ctx: CommandContext, pending: PendingSpend) => Promise<SpendOutcome>,
): ActionSpec[] {
  const confirm = async (ctx: CommandContext, id: string): Promise<Response> => {
    const pending = await load(ctx, op, id);
    if (pending.state === 'done' && pending.result) return { kind: 'update', card: pending.result };
    if (pending.state === 'cancelled') return { kind: 'update', card: cancelledCard(NOT_DONE[op]) };
    if (ctx.now() - pending.createdAt > SPEND_REQUEST_TTL_MS) {
      throw userError('request-expired', { minutes: SPEND_REQUEST_TTL_MS / 60_000, command: COMMAND[op] });
    }
    const { response, done } = await run(ctx, pending);
    // An approval request replaces the cost card; its own key makes a second click "already waiting".
    if (!done) return response.kind === 'message' ? { kind: 'update', card: response.card } : response;
    if (response.kind === 'message' || response.kind === 'update') {
      await save(ctx, id, {
        pending: { ...pending, state: 'done', result: response.card },
        card: response.card,
      });
    }
    return response;
  };
  // One card, answered once (one-shot.ts): clicks while the first runs share its outcome (with the key: one
  // charge), and a later click hears who answered it and when.
  const card = (id: string): string | undefined => (id ? KEY(id) : undefined);
  return [
    oneShot({ action: confirmAction(op), card, run: confirm }),
    oneShot({
      action: cancelAction(op),
      card,
      async run(ctx, id): Promise<Response> {
        const pending = await load(ctx, op, id);
        if (pending.state === 'done' && pending.result) return { kind: 'update', card: pending.result };
        const card = cancelledCard(NOT_DONE[op]);
        await save(ctx, id, { pending: { ...pending, state: 'cancelled' }, card });
        return { kind: 'update', card };
      },
    }),
  ];
}
