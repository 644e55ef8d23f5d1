/** Approval scenarios: the approvals inbox, withdrawing a request, expiry of publish-now and spend requests, spends confirmed first. Registered on every driver by `scenarios.ts`. */
import type { ApprovalScenario } from './scenario-kit.js';

export const INBOX_SCENARIOS: readonly ApprovalScenario[] = [];
