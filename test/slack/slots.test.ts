/**
 * Queue slots through Slack: `schedule … next` and the clash and daily-cap warnings' buttons on the real Bolt
 * app over signed HTTP, the answers read back from the Block Kit the fake Web API recorded. Both profiles.
 */
import { defineSlotsSuite } from '../core/publishing/slots-scenarios.js';
import { createSlackDriver } from './approvals-driver.js';

defineSlotsSuite('Slack (real Bolt, signed HTTP)', (profile) => createSlackDriver({ profile }));
