/** Approval scenarios: what is published is what was approved (edits after approval), and the shared key's scope. Registered on every driver by `scenarios.ts`. */
import type { ApprovalScenario } from './scenario-kit.js';

export const CONTENT_SCENARIOS: readonly ApprovalScenario[] = [];
