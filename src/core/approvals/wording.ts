/** Sentences about an approval's state, shared by the request, decision and retry handlers. */
import { formatMention } from '../people/mentions.js';
import type { Approval } from '../ports.js';
import { literal } from '../text.js';
import { formatBoth } from '../time/format.js';

/** "Already approved by @bob (Mon 23 Nov 2026, 09:00 UTC)." and the like. */
export function alreadyDecided(approval: Approval): string {
  const by = approval.decidedBy ? formatMention(approval.decidedBy) : undefined;
  const when = approval.decidedAt !== undefined ? ` (${formatBoth(approval.decidedAt, 'UTC')})` : '';
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
