/**
 * Scheduling again through Slack: the real Bolt app over signed HTTP, the question's buttons as
 * block_actions, the answers read back from the Block Kit the fake Web API recorded, the service's calendar
 * read at the simulator. Both simulator profiles.
 */
import { defineRescheduleSuite } from '../core/publishing/reschedule-scenarios.js';
import { createSlackDriver } from './approvals-driver.js';

defineRescheduleSuite('Slack (real Bolt, signed HTTP)', (profile) => createSlackDriver({ profile }));
