/** Sentences about an approval's state, shared by the request, decision and retry handlers. */
import type { CommandContext } from '../dispatch/context.js';
import { formatMention } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { type CardText, literal, md } from '../text/text.js';
import { formatSeen } from '../time/format.js';

/** Who reads the sentence: the time is in their zone, the day named unless it is today. */
type Reader = Pick<CommandContext, 'timeZone' | 'now'>;

/** "Already approved by @bob at 10:02." and the like (a late click on a stale copy of the card). */
export async function alreadyDecided(approval: Approval, reader: Reader): Promise<CardText> {
  const by = approval.decidedBy ? formatMention(approval.decidedBy) : undefined;
  const when =
    approval.decidedAt !== undefined
      ? md` at ${formatSeen(approval.decidedAt, await reader.timeZone(), reader.now())}`
      : md``;
  switch (approval.status) {
    case 'approved':
      return md`Already approved by ${by ?? md`an approver`}${when}.`;
    case 'rejected':
      return md`Already rejected by ${by ?? md`an approver`}${when}${approval.reason ? md`: “${literal(approval.reason)}”` : md``}.`;
    case 'expired':
      if (approval.reason === 'withdrawn') return md`Already withdrawn by ${by ?? md`a member`}${when}.`;
      return by
        ? md`Already replaced by a new request from ${by}${when}.`
        : md`Already expired${when}: nobody decided before ${approval.action.command === 'schedule' ? md`the scheduled time` : md`the request expired`}.`;
    case 'failed':
      return md`Already tried${when}; it did not go through.`;
    case 'pending':
      return md`Still waiting for an approver.`;
    case 'changes':
      return md`${by ?? md`An approver`} asked for changes${when}${approval.reason ? md`: “${literal(approval.reason)}”` : md``}; it waits for a new version.`;
  }
}
