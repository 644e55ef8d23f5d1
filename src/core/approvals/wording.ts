/** Sentences about an approval's state, shared by the request, decision and retry handlers. */
import type { CommandContext } from '../dispatch/context.js';
import { formatMention } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { literal } from '../text/text.js';
import { formatSeen } from '../time/format.js';

/** Who reads the sentence: the time is in their zone, the day named unless it is today. */
type Reader = Pick<CommandContext, 'timeZone' | 'now'>;

/** "Already approved by @bob at 10:02." and the like (a late click on a stale copy of the card). */
export async function alreadyDecided(approval: Approval, reader: Reader): Promise<string> {
  const by = approval.decidedBy ? formatMention(approval.decidedBy) : undefined;
  const when =
    approval.decidedAt !== undefined
      ? ` at ${formatSeen(approval.decidedAt, await reader.timeZone(), reader.now())}`
      : '';
  switch (approval.status) {
    case 'approved':
      return `Already approved by ${by ?? 'an approver'}${when}.`;
    case 'rejected':
      return `Already rejected by ${by ?? 'an approver'}${when}${approval.reason ? `: “${literal(approval.reason)}”` : ''}.`;
    case 'expired':
      if (approval.reason === 'withdrawn') return `Already withdrawn by ${by ?? 'a member'}${when}.`;
      return by
        ? `Already replaced by a new request from ${by}${when}.`
        : `Already expired${when}: nobody decided before ${approval.action.command === 'schedule' ? 'the scheduled time' : 'the request expired'}.`;
    case 'failed':
      return `Already tried${when}; it did not go through.`;
    case 'pending':
      return 'Still waiting for an approver.';
  }
}
