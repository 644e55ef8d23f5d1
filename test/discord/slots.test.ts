/**
 * Queue slots through Discord: the real discord.js client over the fake gateway, `/reel settings`, `/reel
 * schedule … next` as typed options, the clash and daily-cap warnings' buttons as component interactions, the
 * bodies read at the simulator. Both simulator profiles.
 */
import { defineSlotsSuite } from '../core/publishing/slots-scenarios.js';
import { createDiscordDriver } from './approvals-driver.js';

defineSlotsSuite('Discord (discord.js over the fake gateway)', (profile) => createDiscordDriver({ profile }));
