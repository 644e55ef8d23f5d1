/**
 * Asking for an approval: the approval row, its card (through the outbox), its expiry watch and the audit
 * row are written in one transaction; the requester gets a private "Sent for approval to …". Nothing is sent
 * to the video API until an approver agrees (`decide.ts`).
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import { TYPED_RETRY_WINDOW_MS } from '../dispatch/request-id.js';
import { postCard, repostIfUnposted, unpostableNotice } from '../live/live-card.js';
import { formatMentions } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { type Field, type Image, message, type Response, type Section } from '../text/cards.js';
import { type CardText, joinText, literal, md, storedText } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import { renderApprovalCard } from './card.js';
import { auditApproval, showOnVideoCard } from './effects.js';
import { requestLifetimeMs } from './lifetime.js';
import {
  type ApprovalCardModel,
  type ApprovedCommand,
  approvalCardKey,
  approvalIdFor,
  asRecord,
} from './model.js';
import { nextLookAt } from './reminders.js';
import { sendNewVersion, sentBackFor } from './resubmit.js';
import { type Stage, stagesOf, stepOf } from './stages.js';
import { alreadyDecided } from './wording.js';

export interface ApprovalRequest {
  command: ApprovedCommand;
  /** What the approved action needs (ids, platforms, instant); stored as JSON. */
  args: Record<string, unknown>;
  /** The requester's key for this user action: the approved action is sent with it, so it never doubles. */
  idempotencyKey: string;
  /** `Publish “Launch teaser” to YouTube` */
  summary: CardText;
  fields?: Field[];
  /** Previews (the platforms' post details). */
  sections?: Section[];
  image?: Image;
  /** A scheduled instant: shown on the card, and the approval expires then. */
  at?: number;
}

/** Approvers only see a request on its card: if the card cannot be posted, the requester must hear it. */
const unpostable = (requester: string) =>
  unpostableNotice(requester, md`ask again: approvers see your request only once its card is posted`);

/** One request being asked for: what was asked, and the facts fixed when it was asked. */
interface Asking {
  request: ApprovalRequest;
  id: string;
  cardKey: string;
  requester: string;
  /** The approvers of the first stage (of the only one without stages). */
  approvers: string[];
  path?: Stage[];
  now: number;
  zone: string;
  expiresAt: number;
}

export async function requestApproval(ctx: CommandContext, request: ApprovalRequest): Promise<Response> {
  const settings = await ctx.settings();
  const requester = ctx.req.user;
  for (const stage of stagesOf(settings)) {
    if (stage.approvers.length === 0)
      throw stage.name
        ? userError('approval-stage-no-approvers', { stage: stage.name })
        : userError('approval-no-approvers');
    if (!settings.selfApproval && stage.approvers.every((a) => a === requester))
      throw userError('approval-only-you');
  }
  const stages = stagesOf(settings, requester);
  const store = ctx.deps.store;
  // The same request, typed again after an approver asked for changes: its new version, in the same thread.
  const sentBack = await sentBackFor(ctx, request);
  if (sentBack) return sendNewVersion(ctx, sentBack);
  const id = approvalIdFor(request.idempotencyKey);
  const now = ctx.now();
  const asking: Asking = {
    request,
    id,
    cardKey: approvalCardKey(id),
    requester,
    approvers: stages[0]?.approvers ?? [],
    // One implicit stage: no path, the card as it always was.
    ...(stages.length > 1 ? { path: stages } : {}),
    now,
    zone: await ctx.timeZone(),
    // A schedule request expires at its time; any other after the workspace's request lifetime.
    expiresAt: request.at ?? now + requestLifetimeMs(settings),
  };
  const existing = await store.transaction(
    async () => (await store.approvals.get(id)) ?? (await createApproval(ctx, asking)),
  );
  return existing ? await askedBefore(ctx, asking, existing) : sentForApproval(asking);
}

/** Writes the approval, its card, its expiry watch and the audit row (inside the caller's transaction). */
async function createApproval(ctx: CommandContext, asking: Asking): Promise<undefined> {
  const store = ctx.deps.store;
  const { request, id, cardKey, requester, now, expiresAt } = asking;
  const approval = await store.approvals.create({
    id,
    conversation: ctx.req.conversation,
    requester,
    action: {
      command: request.command,
      args: request.args,
      idempotencyKey: request.idempotencyKey,
      summary: request.summary,
    },
    cardKey,
    expiresAt,
  });
  const model = cardModel(ctx, asking);
  await postCard(store, {
    key: cardKey,
    conversation: ctx.req.conversation,
    card: renderApprovalCard(model),
    model: asRecord(model),
    onUnpostable: unpostable(requester),
  });
  await showOnVideoCard(store, approval, { model, dedupeKey: `${cardKey}:requested` });
  // Due at its first reminder, and ends exactly at expiry: the poller then expires it without any API call
  // (expiry-watcher.ts).
  await store.watches.add({
    kind: 'approval',
    target: id,
    owner: await ctx.keyOwner(),
    conversation: ctx.req.conversation,
    cardKey,
    state: {},
    nextCheckAt: nextLookAt(now, expiresAt, now),
    expiresAt,
  });
  await auditApproval(store, approval, {
    at: now,
    actor: requester,
    action: 'approval.request',
    ...(request.at !== undefined ? { details: { scheduledTime: new Date(request.at).toISOString() } } : {}),
  });
  return undefined;
}

function cardModel(ctx: CommandContext, asking: Asking): ApprovalCardModel {
  const { request, id, requester, approvers, path, now, zone, expiresAt } = asking;
  return {
    type: 'approval',
    approvalId: id,
    command: request.command,
    summary: request.summary,
    requester,
    requesterName: ctx.req.userName ?? 'A member',
    requesterZone: zone,
    approvers,
    requestedAt: now,
    fields: request.fields ?? [],
    status: 'pending',
    ...(request.at !== undefined ? { at: request.at } : { expiresAt }),
    ...(request.sections ? { sections: request.sections } : {}),
    ...(request.image ? { image: request.image } : {}),
    ...(path ? { path: path.map(stepOf), stage: 0 } : {}),
  };
}

/** The same request was asked before: still waiting (its card is posted again if it never was), or decided. */
async function askedBefore(ctx: CommandContext, asking: Asking, existing: Approval): Promise<Response> {
  const store = ctx.deps.store;
  const { id, cardKey, requester, now } = asking;
  if (existing.status === 'pending') {
    // Its card may never have reached the channel (the bot was not invited): asking again posts it.
    await store.transaction(async () =>
      repostIfUnposted(store, {
        key: cardKey,
        dedupeKey: `${cardKey}:repost:${now}`,
        onUnpostable: unpostable(requester),
      }),
    );
    return message({
      title: md`Already waiting for approval`,
      tone: 'info',
      text: md`**${storedText(existing.action.summary)}** was already sent for approval; its card is in this channel.`,
      context: md`Approval \`${literal(id)}\``,
    });
  }
  return message({
    title: md`Already decided`,
    tone: 'info',
    // The same typed request soon after counts as a retry of the decided one (src/core/dispatch/request-id.ts).
    text: md`${await alreadyDecided(existing, ctx)} Change something, or ask again in ${TYPED_RETRY_WINDOW_MS / 60_000} minutes for a new request.`,
    context: md`Approval \`${literal(id)}\``,
  });
}

function sentForApproval({ request, id, approvers, zone, expiresAt }: Asking): Response {
  const lines = [
    md`Sent for approval to ${formatMentions(approvers, md`nobody`)}: **${request.summary}**.`,
    md`Its card is in this channel; I tell you here when someone decides.`,
  ];
  lines.push(
    md`It must be approved before ${formatBoth(expiresAt, zone)}, or it expires; **Withdraw** on its card takes it back.`,
  );
  return message({
    title: md`Sent for approval`,
    tone: 'info',
    text: joinText(lines, '\n'),
    context: md`Approval \`${literal(id)}\``,
  });
}
