/** Queue slots, `schedule … next`, clashes and daily caps on the core harness (both profiles). */
import { createCoreDriver } from '../approvals/core-driver.js';
import { defineSlotsSuite } from './slots-scenarios.js';

defineSlotsSuite('the core harness', (profile) => createCoreDriver({ profile }));
