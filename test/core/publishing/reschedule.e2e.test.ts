/** Scheduling again, Move / Keep both / Cancel and `reschedule` on the core harness (issue 26). */
import { createCoreDriver } from '../approvals/core-driver.js';
import { defineRescheduleSuite } from './reschedule-scenarios.js';

defineRescheduleSuite('the core harness', (profile) => createCoreDriver({ profile }));
