/**
 * A request waiting for a click on its confirm card (`create`, a series spend): kept in the store as the model
 * of a card under its own key, so the buttons carry only a short id. It is answered in the conversation it was
 * asked in, and only by the person who asked unless the caller says anyone may.
 */

import type { Card } from '../text/cards.js';
import { type CommandContext, userError } from './context.js';

/** What every kept request says about who asked. */
export interface PendingRequest {
  type: string;
  requester: string;
  requesterName?: string;
}

/** Keeps `pending` under `key` with the card that shows it, in this conversation. */
export async function keepPending(
  ctx: CommandContext,
  key: string,
  { pending, card }: { pending: PendingRequest; card: Card },
): Promise<void> {
  await ctx.deps.store.cards.put(key, {
    conversation: ctx.req.conversation,
    card,
    model: pending as unknown as Record<string, unknown>,
  });
}

/**
 * The request kept under `key` when `accepts` knows it and it belongs to this conversation (else the click
 * has expired), asked by this member unless `anyone` may answer it.
 */
export async function loadPending<P extends PendingRequest>(
  ctx: CommandContext,
  key: string,
  { accepts, anyone = false }: { accepts: (model: Partial<P>) => boolean; anyone?: boolean },
): Promise<P> {
  const record = await ctx.deps.store.cards.get(key);
  const pending = record?.model as Partial<P> | undefined;
  if (!pending || !accepts(pending) || record?.conversation !== ctx.req.conversation)
    throw userError('interaction-expired');
  if (!anyone && pending.requester !== ctx.req.user)
    throw userError('not-your-request', { who: pending.requesterName ?? 'the person who asked' });
  return pending as P;
}
