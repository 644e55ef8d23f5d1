/**
 * Scheduling again through Discord: the real discord.js client over the fake gateway, `/reel
 * schedule` and `/reel reschedule` as typed options, the question's buttons as component interactions, the
 * service's calendar read at the simulator. Both simulator profiles.
 */
import { defineRescheduleSuite } from '../core/publishing/reschedule-scenarios.js';
import { createDiscordDriver } from './approvals-driver.js';

defineRescheduleSuite('Discord (discord.js over the fake gateway)', (profile) =>
  createDiscordDriver({ profile }),
);
