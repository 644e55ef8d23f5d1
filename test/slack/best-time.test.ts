/**
 * `schedule … best` through Slack: the real Bolt app over signed HTTP, the proposal read back from the Block
 * Kit the fake Web API recorded, its button as a block_action, what the simulator received. Both profiles.
 */
import { defineBestTimeSuite } from '../core/publishing/best-time-scenarios.js';
import { createSlackDriver } from './approvals-driver.js';

defineBestTimeSuite('Slack (real Bolt, signed HTTP)', (profile) => createSlackDriver({ profile }));
