/**
 * The approval scenarios on Discord's real-library harness: the real discord.js client over the fake gateway,
 * the real adapter, core, poller and outbox (see `approvals-driver.ts`). Twice: answered within Discord's
 * window, and with every answer deferred (follow-ups and edits through the interaction's webhook, forms
 * opened from a button since a modal must be the first answer). Each on both simulator profiles.
 */
import { defineApprovalSuite } from '../core/approvals/scenarios.js';
import { createDiscordDriver } from './approvals-driver.js';

defineApprovalSuite('Discord (discord.js over the fake gateway)', (profile) =>
  createDiscordDriver({ profile }),
);
defineApprovalSuite('Discord, every answer deferred', (profile) =>
  createDiscordDriver({ profile, deferAfterMs: 0 }),
);
