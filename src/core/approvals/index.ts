/**
 * Team publishing (DESIGN §5): approvals, roles and the audit trail. Commands ask through `policy.ts` and
 * `request.ts`; approvers decide on the card (`decide.ts`), which runs the action through the runner its command group registered (`runner-port.ts`);
 * scheduled requests expire through `expiry-watcher.ts`; `roles.ts` limits who may run each class of action.
 */
import type { CommandModule } from '../parse/command-spec.js';
import { askAgainAction } from './ask-again.js';
import { changesAction, changesForm } from './changes.js';
import { approveAction, rejectAction, rejectForm, retryAction } from './decide.js';
import { rescheduleAction, rescheduleForm } from './reschedule.js';
import { resubmitAction } from './resubmit.js';
import { withdrawAction } from './withdraw.js';

export { approvalWatcher } from './expiry-watcher.js';
export { type ApprovalNeed, needsApproval } from './policy.js';
export { type ApprovalRequest, requestApproval } from './request.js';
export { checkRole, hasRole, type Role } from './roles.js';

/** The approval card's buttons and forms. */
export const approvalsModule: CommandModule = {
  actions: [
    approveAction,
    rejectAction,
    retryAction,
    rescheduleAction,
    withdrawAction,
    askAgainAction,
    changesAction,
    resubmitAction,
  ],
  forms: [rejectForm, rescheduleForm, changesForm],
};
