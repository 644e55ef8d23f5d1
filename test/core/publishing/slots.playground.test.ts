/** Queue slots, `schedule … next` and the warnings' buttons through the playground adapter's HTTP routes. */
import { createPlaygroundDriver } from '../approvals/playground-driver.js';
import { defineSlotsSuite } from './slots-scenarios.js';

defineSlotsSuite('the playground (HTTP)', (profile) => createPlaygroundDriver({ profile }));
