/**
 * `schedule … best` through Discord: the real discord.js client over the fake gateway, `/reel schedule` with
 * `when:best` as a typed option, the proposal's button as a component interaction, what the simulator
 * received. Both simulator profiles.
 */
import { defineBestTimeSuite } from '../core/publishing/best-time-scenarios.js';
import { createDiscordDriver } from './approvals-driver.js';

defineBestTimeSuite('Discord (discord.js over the fake gateway)', (profile) =>
  createDiscordDriver({ profile }),
);
