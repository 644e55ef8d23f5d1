/**
 * The approval card: one long-lived channel message per request, edited in place as it is decided, runs,
 * fails or expires. It is shared, so times read in the requester's zone with UTC beside them; each
 * approver sees their own zone in the private confirmation after deciding.
 */

import { formatMention, formatMentions } from '../people/mentions.js';
import type { Button, Card, Control, Field } from '../text/cards.js';
import { code, literal } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import type { ApprovalCardModel } from './model.js';

export const APPROVE_ACTION = 'approval.approve';
export const REJECT_ACTION = 'approval.reject';
export const RETRY_ACTION = 'approval.retry';
export const RESCHEDULE_ACTION = 'approval.reschedule';
/** Only the requester may use it; anyone else is refused (withdraw.ts). */
export const WITHDRAW_ACTION = 'approval.withdraw';

const utc = (instant: number): string => formatBoth(instant, 'UTC');

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
  if (m.at !== undefined) fields.push({ label: 'When', value: formatBoth(m.at, m.requesterZone) });
  fields.push({ label: 'Requested by', value: formatMention(m.requester), short: true });
  fields.push({ label: 'Approvers', value: formatMentions(m.approvers, 'nobody'), short: true });

  const card: Card = { title: titleOf(m), tone: toneOf(m), text: textOf(m), fields };
  if (m.sections && m.sections.length > 0) card.sections = m.sections;
  if (m.image) card.image = m.image;
  const controls = controlsOf(m);
  if (controls.length > 0) card.controls = controls;
  card.context = `Approval ${code(m.approvalId)} · asked ${utc(m.requestedAt)}`;
  // The approvers are pinged when the request is posted; a decided card names them without pinging again.
  if (m.status === 'pending' && m.approvers.length > 0) card.notify = [...m.approvers];
  return card;
}

function titleOf(m: ApprovalCardModel): string {
  if (m.replacedBecause !== undefined) return `Replaced: ${m.summary}`;
  switch (m.status) {
    case 'pending':
      return `Approval needed: ${m.summary}`;
    case 'approved':
      return m.outcome?.state === 'failed' ? `Approved, not done: ${m.summary}` : `Approved: ${m.summary}`;
    case 'rejected':
      return `Rejected: ${m.summary}`;
    case 'expired':
      if (m.withdrawnBy !== undefined) return `Withdrawn: ${m.summary}`;
      return m.rescheduledTo !== undefined ? `Replaced: ${m.summary}` : `Expired: ${m.summary}`;
    case 'failed':
      return `Not done: ${m.summary}`;
  }
}

function toneOf(m: ApprovalCardModel): NonNullable<Card['tone']> {
  if (m.status === 'pending') return 'warning';
  if (m.status === 'rejected' || m.status === 'failed') return 'danger';
  if (m.status === 'expired') return 'neutral';
  if (m.outcome?.state === 'failed') return 'danger';
  return m.outcome?.state === 'done' ? 'success' : 'progress';
}

function textOf(m: ApprovalCardModel): string {
  const by = m.decidedByName ? `**${literal(m.decidedByName)}**` : 'an approver';
  const when = m.decidedAt !== undefined ? ` on ${utc(m.decidedAt)}` : '';
  if (m.replacedBecause !== undefined) return replacedText(m);
  switch (m.status) {
    case 'pending': {
      const lines = [
        `**${literal(m.requesterName)}** asks for approval. An approver decides with the buttons below.`,
      ];
      if (m.at !== undefined) lines.push(`It expires at the scheduled time if nobody decides before.`);
      else if (m.expiresAt !== undefined)
        lines.push(`It expires on ${utc(m.expiresAt)} if nobody decides before.`);
      lines.push('The requester can **Withdraw** it until then.');
      return lines.join('\n');
    }
    case 'approved': {
      const head = `Approved by ${by}${when}.`;
      if (!m.outcome || m.outcome.state === 'running')
        return `${head} Running it now… (if this stays, press **Retry**: it never runs twice)`;
      if (m.outcome.state === 'failed')
        return `${head} It did not go through: ${m.outcome.text}\n${by} can press **Retry** once it is fixed; it never runs twice.`;
      return `${head}\n${m.outcome.text}`;
    }
    case 'rejected':
      return `Rejected by ${by}${when}${m.reason ? `: “${literal(m.reason)}”` : '.'} Nothing was sent.`;
    case 'expired':
      if (m.withdrawnBy !== undefined) {
        const how = m.withdrawnWith === 'button' ? '' : ' with `unschedule`';
        return `Withdrawn by **${literal(m.withdrawnBy)}**${how}${when}. Nothing was sent.`;
      }
      if (m.rescheduledTo !== undefined)
        return `Replaced by a new request for ${formatBoth(m.rescheduledTo, m.requesterZone)}${m.decidedByName ? ` (by ${by})` : ''}. Nothing was sent for this time.`;
      return m.at !== undefined
        ? `Nobody decided before the scheduled time, so nothing was sent. **Reschedule** asks again for a new time.`
        : 'Nobody decided before the request expired, so nothing was sent. Ask again if it is still wanted.';
    case 'failed':
      return `It did not go through${m.outcome ? `: ${m.outcome.text}` : '.'}`;
  }
}

/** Someone with the publish role changed what it would publish: a new request asks again. */
function replacedText(m: ApprovalCardModel): string {
  const who = `**${literal(m.replacedByName ?? 'A member')}**`;
  const at = m.replacedAt !== undefined ? ` on ${utc(m.replacedAt)}` : '';
  const head = `Replaced because the content changed: ${who} changed what it would publish${at}, so a new request shows the approvers what changed.`;
  return m.status === 'approved'
    ? `${head}\nIt had been approved; its scheduled post was cancelled, so nothing goes out for this request.`
    : `${head}\nNothing was sent for this request.`;
}

function controlsOf(m: ApprovalCardModel): Control[] {
  const id = m.approvalId;
  if (m.replacedBecause !== undefined) return [];
  const reschedule =
    m.command === 'schedule' ? [button({ action: RESCHEDULE_ACTION, id, label: 'Reschedule' })] : [];
  if (m.status === 'pending') {
    return [
      button({ action: APPROVE_ACTION, id, label: 'Approve', style: 'primary' }),
      button({ action: REJECT_ACTION, id, label: 'Reject', style: 'danger' }),
      ...reschedule,
      button({ action: WITHDRAW_ACTION, id, label: 'Withdraw' }),
    ];
  }
  // Also while running: after a crash mid-run the card would otherwise wait forever (the key makes it safe).
  if (m.status === 'approved' && m.outcome?.state !== 'done')
    return [button({ action: RETRY_ACTION, id, label: 'Retry', style: 'primary' })];
  if (m.status === 'expired' && m.rescheduledTo === undefined && m.withdrawnBy === undefined)
    return reschedule;
  return [];
}
