/** Approval scenarios: the workspace policy: inheritance by every conversation (DMs, channels without settings), tightening only, approvers verified fresh. Registered on every driver by `scenarios.ts`. */
import type { ApprovalScenario } from './scenario-kit.js';

export const POLICY_SCENARIOS: readonly ApprovalScenario[] = [];
