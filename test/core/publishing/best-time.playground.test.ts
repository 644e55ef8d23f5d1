/** `schedule … best` through the playground adapter's HTTP routes, against the real core. Both profiles. */
import { createPlaygroundDriver } from '../approvals/playground-driver.js';
import { defineBestTimeSuite } from './best-time-scenarios.js';

defineBestTimeSuite('the playground (HTTP)', (profile) => createPlaygroundDriver({ profile }));
