/**
 * The seam where the channel approval policy (DESIGN §5, `settings approval publish`) will plug into publish
 * and schedule. Approvals are a later issue: until they exist nothing requires one, and this says so
 * plainly instead of pretending to check a policy.
 */
import type { CommandContext } from '../../context.js';
import type { Platform } from '../../video-api.js';

export interface PublishingRequest {
  kind: 'publish' | 'schedule';
  videoId: string;
  platforms: readonly Platform[];
  /** Scheduled instant (ms) for `schedule`. */
  at?: number;
}

/** Whether an approver must agree before `request` runs. Always false until approvals land. */
export function requiresApproval(_ctx: CommandContext, _request: PublishingRequest): boolean {
  return false;
}
