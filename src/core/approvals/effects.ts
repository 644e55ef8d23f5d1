/**
 * The chat and store effects of an approval's state changes, each called inside `store.transaction` with
 * the change itself: the card edit, the requester's notice, closing the expiry watch and the audit row.
 * Dedupe keys name the approval and the state, so a retried transaction never says anything twice.
 */

import { editCard, notifyUser } from '../live/live-card.js';
import { updateVideoCard, videoState } from '../live/projections.js';
import type { Approval, AuditEntry, Store } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { renderApprovalCard } from './card.js';
import { type ApprovalCardModel, asRecord, readApprovalModel } from './model.js';

/**
 * Merges `patch` into the card's model (without the `drop` fields: a request sent again forgets its last
 * decision) and queues the edit; undefined when the card is unknown.
 */
export async function updateApprovalCard(
  store: Store,
  approval: Approval,
  {
    patch,
    dedupeKey,
    drop = [],
  }: { patch: Partial<ApprovalCardModel>; dedupeKey: string; drop?: (keyof ApprovalCardModel)[] },
): Promise<ApprovalCardModel | undefined> {
  const record = await store.cards.get(approval.cardKey);
  const model = readApprovalModel(record?.model);
  if (!model) return undefined;
  const next: ApprovalCardModel = { ...model, ...patch };
  for (const key of drop) delete next[key];
  await editCard(store, approval.cardKey, {
    card: renderApprovalCard(next),
    dedupeKey,
    model: asRecord(next),
  });
  await showOnVideoCard(store, approval, { model: next, dedupeKey });
  return next;
}

/**
 * The request's state on its video's living card too (when it is about a video that is shown anywhere): a
 * decision made on one platform shows on the video's cards on every platform.
 */
export async function showOnVideoCard(
  store: Store,
  approval: Approval,
  { model, dedupeKey }: { model: ApprovalCardModel; dedupeKey: string },
): Promise<void> {
  const videoId = approval.action.args.videoId;
  if (typeof videoId !== 'string' || videoId === '') return;
  // A reschedule asks again, then retires the old request: the card keeps showing the newer one.
  const shown = (await videoState(store, videoId))?.approval;
  if (shown && shown.id !== approval.id && (shown.requestedAt ?? 0) > model.requestedAt) return;
  const status = model.withdrawnBy ? 'withdrawn' : model.status;
  const by = model.withdrawnBy ?? model.decidedByName;
  await updateVideoCard(store, videoId, {
    patch: {
      approval: {
        id: approval.id,
        requestedAt: model.requestedAt,
        status,
        summary: model.summary,
        ...(by ? { by } : {}),
      },
    },
    dedupeKey: `${dedupeKey}:video`,
  });
}

/** The approval's card model, for wording (summary, zone). */
export async function approvalModel(
  store: Store,
  approval: Approval,
): Promise<ApprovalCardModel | undefined> {
  return readApprovalModel((await store.cards.get(approval.cardKey))?.model);
}

/** Stops the expiry watch of a decided approval. */
export async function closeExpiryWatch(store: Store, approvalId: string): Promise<void> {
  const watch = await store.watches.findActive('approval', approvalId);
  if (watch) await store.watches.update(watch.id, { status: 'done' });
}

/**
 * What names one round of a request in dedupe keys: `approval:<id>` as always for the first, and the round after
 * it for a request sent again after Request changes (its second decision or notice is a new one).
 */
export const roundKey = (approval: Approval): string =>
  approval.round ? `approval:${approval.id}:r${approval.round}` : `approval:${approval.id}`;

/** A private notice to the requester, once per `state` (and round). */
export async function notifyRequester(
  store: Store,
  approval: Approval,
  { state, card }: { state: string; card: Card },
): Promise<void> {
  await notifyUser(store, {
    user: approval.requester,
    conversation: approval.conversation,
    card,
    dedupeKey: `${roundKey(approval)}:notify:${state}`,
  });
}

/** An audit row about an approval (request, decision, expiry, outcome). */
export async function auditApproval(
  store: Store,
  approval: Approval,
  entry: Pick<AuditEntry, 'at' | 'actor' | 'action'> & { details?: Record<string, unknown> },
): Promise<void> {
  const args = approval.action.args;
  await store.audit.record({
    at: entry.at,
    conversation: approval.conversation,
    actor: entry.actor,
    action: entry.action,
    ...(typeof args.videoId === 'string' ? { videoId: args.videoId } : {}),
    ...(typeof args.seriesId === 'string' ? { seriesId: args.seriesId } : {}),
    // The cost goes in details: `credits` is what was actually spent, on the rows of the action itself.
    details: {
      ...(typeof args.cost === 'number' ? { cost: args.cost } : {}),
      approval: approval.id,
      command: approval.action.command,
      summary: approval.action.summary,
      ...(approval.requester !== entry.actor ? { requester: approval.requester } : {}),
      ...entry.details,
    },
  });
}

/** A decision and what it leaves: the card's fields beyond status and time, and who did what for the audit. */
interface DecisionRecord {
  decision: Parameters<Store['approvals']['decide']>[1];
  card?: Partial<ApprovalCardModel>;
  audit: Pick<AuditEntry, 'actor' | 'action'> & { details?: Record<string, unknown> };
}

/**
 * Decides a still-pending approval (a compare-and-set: false when a click or the expiry came first) and
 * records it: the expiry watch closed, the card showing the decision with `card`, the audit row.
 */
export async function recordDecision(
  store: Store,
  approval: Approval,
  { decision, card, audit }: DecisionRecord,
): Promise<boolean> {
  if (!(await store.approvals.decide(approval.id, decision))) return false;
  await closeExpiryWatch(store, approval.id);
  await updateApprovalCard(store, approval, {
    patch: { status: decision.status, decidedAt: decision.at, ...card },
    dedupeKey: `${roundKey(approval)}:${decision.status}`,
  });
  await auditApproval(store, approval, { at: decision.at, ...audit });
  return true;
}
