/**
 * The seam for the `spend` approval policy (DESIGN §5: with `approval spend`, creating series episodes
 * above the channel's credit threshold waits for an approver). That policy is a later issue: until it lands
 * nothing needs approval, and this is the one place that will change.
 */
import type { CommandContext } from '../../context.js';

export interface SpendRequest {
  action: 'series.create' | 'series.generate';
  seriesId?: string;
  /** Credits the action will charge, when known. */
  credits?: number;
}

export function requiresApproval(_ctx: CommandContext, _request: SpendRequest): boolean {
  return false;
}
