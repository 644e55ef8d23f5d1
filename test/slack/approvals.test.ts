/**
 * The approval scenarios through Slack: the real Bolt app over signed HTTP (slash commands, block_actions,
 * view_submission), cards read back from the Block Kit the fake Web API recorded, group approvers from the
 * workspace's user groups.
 */
import { defineApprovalSuite } from '../core/approvals/scenarios.js';
import { createSlackDriver } from './approvals-driver.js';

defineApprovalSuite('Slack (real Bolt, signed HTTP)', createSlackDriver);
