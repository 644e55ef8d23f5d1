/** The approval scenarios through the playground adapter's HTTP routes, against the real core. */
import { createPlaygroundDriver } from './playground-driver.js';
import { defineApprovalSuite } from './scenarios.js';

defineApprovalSuite('the playground (HTTP)', (profile) => createPlaygroundDriver({ profile }));
