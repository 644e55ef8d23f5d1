/**
 * Expiry (DESIGN §5: an approval for a scheduled post expires at its scheduled time, any other after the
 * request lifetime). Called inside a transaction by the expiry watcher at that time, or by a click that
 * arrives after it but before the poller.
 */
import type { Approval, Store } from '../ports/index.js';
import { literal, md, storedText } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import { ASK_AGAIN_ACTION, RESCHEDULE_ACTION } from './card.js';
import { approvalModel, notifyRequester, recordDecision } from './effects.js';

/** Expires a still-pending approval once: card edited, requester told, audit row. False if it was decided. */
export async function expireApproval(store: Store, approval: Approval, now: number): Promise<boolean> {
  const model = await approvalModel(store, approval);
  const decided = await recordDecision(store, approval, {
    decision: { status: 'expired', at: now },
    audit: { actor: approval.requester, action: 'approval.expire' },
  });
  if (!decided) return false;
  const at = formatBoth(approval.expiresAt ?? now, model?.requesterZone ?? 'UTC');
  const command = approval.action.command;
  const next =
    command === 'schedule'
      ? md`Press **Reschedule** to ask again for a new time.`
      : command === 'publish'
        ? md`Press **Ask again** to send the same request to the approvers.`
        : md`Nothing was charged or published; ask again if it is still wanted.`;
  const again =
    command === 'schedule' ? RESCHEDULE_ACTION : command === 'publish' ? ASK_AGAIN_ACTION : undefined;
  const label = command === 'schedule' ? 'Reschedule' : 'Ask again';
  await notifyRequester(store, approval, {
    state: 'expired',
    card: {
      title: md`Approval expired`,
      tone: 'warning',
      text: md`Nobody approved **${storedText(approval.action.summary)}** before ${at}, so nothing was sent. ${next}`,
      context: md`Approval \`${literal(approval.id)}\``,
      ...(again ? { controls: [{ kind: 'button', action: again, value: approval.id, label }] } : {}),
    },
  });
  return true;
}
