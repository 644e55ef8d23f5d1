/**
 * The approval card: one long-lived channel message per request, edited in place as it is decided, runs,
 * fails or expires. It is shared, so times read in the requester's zone with UTC beside them; each
 * approver sees their own zone in the private confirmation after deciding.
 */

import { formatMention, formatMentions } from '../people/mentions.js';
import type { Button, Card, Control, Field } from '../text/cards.js';
import { type CardText, code, joinText, literal, md } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import type { ApprovalCardModel } from './model.js';

export const APPROVE_ACTION = 'approval.approve';
export const REJECT_ACTION = 'approval.reject';
export const RETRY_ACTION = 'approval.retry';
export const RESCHEDULE_ACTION = 'approval.reschedule';
/** On the requester's notice of an expired publish request (ask-again.ts). */
export const ASK_AGAIN_ACTION = 'approval.ask-again';
/** Only the requester may use it; anyone else is refused (withdraw.ts). */
export const WITHDRAW_ACTION = 'approval.withdraw';
/** With stages: an approver sends it back to the requester with a comment (changes.ts). */
export const CHANGES_ACTION = 'approval.changes';
/** The requester sends a request that came back for changes again, from the first stage (changes.ts). */
export const RESUBMIT_ACTION = 'approval.resubmit';

const utc = (instant: number): CardText => formatBoth(instant, md`UTC`);

function button({
  action,
  id,
  label,
  style,
}: {
  action: string;
  id: string;
  label: string;
  style?: Button['style'];
}): Button {
  return { kind: 'button', action, value: id, label, ...(style ? { style } : {}) };
}

export function renderApprovalCard(m: ApprovalCardModel): Card {
  const fields: Field[] = [...m.fields];
  if (m.at !== undefined) fields.push({ label: md`When`, value: formatBoth(m.at, m.requesterZone) });
  fields.push({ label: md`Requested by`, value: formatMention(m.requester), short: true });
  const approvers = waitingOn(m);
  fields.push({ label: md`Approvers`, value: formatMentions(approvers, md`nobody`), short: true });
  if (m.path) fields.push({ label: md`Stages`, value: pathText(m) });

  const card: Card = { title: titleOf(m), tone: toneOf(m), text: textOf(m), fields };
  if (m.sections && m.sections.length > 0) card.sections = m.sections;
  if (m.image) card.image = m.image;
  const controls = controlsOf(m);
  if (controls.length > 0) card.controls = controls;
  card.context = md`Approval ${code(m.approvalId)} · asked ${utc(m.requestedAt)}`;
  // The approvers are pinged when the request is posted; a decided card names them without pinging again.
  if (m.status === 'pending' && approvers.length > 0) card.notify = [...approvers];
  return card;
}

/** The approvers of the stage it waits at (all of them for a request without stages). */
export const waitingOn = (m: ApprovalCardModel): string[] => m.path?.[m.stage ?? 0]?.approvers ?? m.approvers;

/** The stage it waits at, by name (undefined without stages). */
export const stageName = (m: ApprovalCardModel): string | undefined => m.path?.[m.stage ?? 0]?.name;

/** "✅ brand by Bo · ⏳ legal (1 of 2)": each stage with who approved it and where it waits. */
export function pathText(m: ApprovalCardModel): CardText {
  const at = m.stage ?? 0;
  const mark: Record<ApprovalCardModel['status'], string> = {
    pending: '⏳',
    approved: '✅',
    rejected: '❌',
    changes: '✏️',
    expired: '⌛',
    failed: '✅',
  };
  const steps = (m.path ?? []).map((step, i) => {
    const done = i < at || (i === at && (m.status === 'approved' || m.status === 'failed'));
    if (done) return md`✅ ${literal(step.name)} by ${literal(step.by.join(', '))}`;
    if (i > at) return md`◻️ ${literal(step.name)}`;
    const count =
      step.all && step.approvers.length > 1
        ? md` (${step.covered.length} of ${step.approvers.length})`
        : md``;
    return md`${literal(mark[m.status])} ${literal(step.name)}${count}`;
  });
  return joinText(steps, ' · ');
}

function titleOf(m: ApprovalCardModel): CardText {
  if (m.replacedBecause !== undefined) return md`Replaced: ${m.summary}`;
  switch (m.status) {
    case 'pending':
      return md`Approval needed: ${m.summary}`;
    case 'approved':
      return m.outcome?.state === 'failed'
        ? md`Approved, not done: ${m.summary}`
        : md`Approved: ${m.summary}`;
    case 'rejected':
      return md`Rejected: ${m.summary}`;
    case 'expired':
      if (m.withdrawnBy !== undefined) return md`Withdrawn: ${m.summary}`;
      return m.rescheduledTo !== undefined ? md`Replaced: ${m.summary}` : md`Expired: ${m.summary}`;
    case 'failed':
      return md`Not done: ${m.summary}`;
    case 'changes':
      return md`Changes requested: ${m.summary}`;
  }
}

function toneOf(m: ApprovalCardModel): NonNullable<Card['tone']> {
  if (m.status === 'pending') return 'warning';
  if (m.status === 'changes') return 'info';
  if (m.status === 'rejected' || m.status === 'failed') return 'danger';
  if (m.status === 'expired') return 'neutral';
  if (m.outcome?.state === 'failed') return 'danger';
  return m.outcome?.state === 'done' ? 'success' : 'progress';
}

function textOf(m: ApprovalCardModel): CardText {
  const by = m.decidedByName ? md`**${literal(m.decidedByName)}**` : md`an approver`;
  const when = m.decidedAt !== undefined ? md` on ${utc(m.decidedAt)}` : md``;
  if (m.replacedBecause !== undefined) return replacedText(m);
  switch (m.status) {
    case 'pending': {
      const lines = [
        md`**${literal(m.requesterName)}** asks for approval. An approver decides with the buttons below.`,
      ];
      const step = m.path?.[m.stage ?? 0];
      if (step)
        lines.push(
          md`It waits at **${literal(step.name)}**${step.all ? md`, where every listed approver must approve` : md``}; each stage decides in turn.`,
        );
      if (m.at !== undefined) lines.push(md`It expires at the scheduled time if nobody decides before.`);
      else if (m.expiresAt !== undefined)
        lines.push(md`It expires on ${utc(m.expiresAt)} if nobody decides before.`);
      lines.push(md`The requester can **Withdraw** it until then.`);
      return joinText(lines, '\n');
    }
    case 'approved': {
      const head = md`Approved by ${by}${when}.`;
      if (!m.outcome || m.outcome.state === 'running')
        return md`${head} Running it now… (if this stays, press **Retry**: it never runs twice)`;
      if (m.outcome.state === 'failed')
        return md`${head} It did not go through: ${m.outcome.text}\n${by} can press **Retry** once it is fixed; it never runs twice.`;
      return md`${head}\n${m.outcome.text}`;
    }
    case 'rejected':
      return md`Rejected by ${by}${atStage(m)}${when}${m.reason ? md`: “${literal(m.reason)}”` : md`.`} Nothing was sent.`;
    case 'expired':
      if (m.withdrawnBy !== undefined) {
        const how = m.withdrawnWith === 'button' ? md`` : md` with \`unschedule\``;
        return md`Withdrawn by **${literal(m.withdrawnBy)}**${how}${when}. Nothing was sent.`;
      }
      if (m.rescheduledTo !== undefined)
        return md`Replaced by a new request for ${formatBoth(m.rescheduledTo, m.requesterZone)}${m.decidedByName ? md` (by ${by})` : md``}. Nothing was sent for this time.`;
      return m.at !== undefined
        ? md`Nobody decided before the scheduled time, so nothing was sent. **Reschedule** asks again for a new time.`
        : md`Nobody decided before the request expired, so nothing was sent. Ask again if it is still wanted.`;
    case 'failed':
      return md`It did not go through${m.outcome ? md`: ${m.outcome.text}` : md`.`}`;
    case 'changes':
      return md`${by} asked for changes${atStage(m)}${when}${m.reason ? md`: “${literal(m.reason)}”` : md`.`}\n**${literal(m.requesterName)}** can press **Send new version** once it is changed: it starts again at the first stage, in this thread.`;
  }
}

/** " at **legal**" for a request with stages. */
function atStage(m: ApprovalCardModel): CardText {
  const name = stageName(m);
  return name ? md` at **${literal(name)}**` : md``;
}

/** Someone with the publish role changed what it would publish: a new request asks again. */
function replacedText(m: ApprovalCardModel): CardText {
  const who = md`**${literal(m.replacedByName ?? 'A member')}**`;
  const at = m.replacedAt !== undefined ? md` on ${utc(m.replacedAt)}` : md``;
  const head = md`Replaced because the content changed: ${who} changed what it would publish${at}, so a new request shows the approvers what changed.`;
  return m.status === 'approved'
    ? md`${head}\nIt had been approved; its scheduled post was cancelled, so nothing goes out for this request.`
    : md`${head}\nNothing was sent for this request.`;
}

function controlsOf(m: ApprovalCardModel): Control[] {
  const id = m.approvalId;
  if (m.replacedBecause !== undefined) return [];
  const reschedule =
    m.command === 'schedule' ? [button({ action: RESCHEDULE_ACTION, id, label: 'Reschedule' })] : [];
  if (m.status === 'pending') {
    return [
      button({ action: APPROVE_ACTION, id, label: 'Approve', style: 'primary' }),
      ...(m.path ? [button({ action: CHANGES_ACTION, id, label: 'Request changes' })] : []),
      button({ action: REJECT_ACTION, id, label: 'Reject', style: 'danger' }),
      ...reschedule,
      button({ action: WITHDRAW_ACTION, id, label: 'Withdraw' }),
    ];
  }
  // Also while running: after a crash mid-run the card would otherwise wait forever (the key makes it safe).
  if (m.status === 'approved' && m.outcome?.state !== 'done')
    return [button({ action: RETRY_ACTION, id, label: 'Retry', style: 'primary' })];
  if (m.status === 'changes') return [button({ action: RESUBMIT_ACTION, id, label: 'Send new version' })];
  if (m.status === 'expired' && m.rescheduledTo === undefined && m.withdrawnBy === undefined)
    return reschedule;
  return [];
}
