/** The approval scenarios on the core harness (Slack-shaped requests, so group approvers are covered). */
import { createCoreDriver } from './core-driver.js';
import { defineApprovalSuite } from './scenarios.js';

defineApprovalSuite('the core harness', (profile) => createCoreDriver({ profile }));
