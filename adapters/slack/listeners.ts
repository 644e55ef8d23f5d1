/**
 * Bolt listeners: payload → core request → `present`. Every listener acknowledges first (Slack wants an
 * answer within 3 s) and works after, except a modal submission, whose acknowledgement must carry the
 * inline errors: it waits for the core up to a budget counted from receipt (the `users.info` and
 * `usergroups.list` lookups included), then acknowledges and answers afterwards.
 */
import type { App } from '@slack/bolt';
import type { Bot, Clock, Logger, Store } from '../../src/core/index.js';
import type { AckGate } from '../../src/http/ack-gate.js';
import type { SlackGroups } from './groups.js';
import type { SlackRevocation } from './installations.js';
import { registerActions } from './listeners/actions.js';
import { registerCommands } from './listeners/commands.js';
import type { ListenerContext } from './listeners/context.js';
import { registerEvents } from './listeners/events.js';
import { registerShortcuts } from './listeners/shortcuts.js';
import { registerViews } from './listeners/views.js';
import type { SlackPeople } from './people.js';
import type { Presenter } from './present.js';

export { VIEW_ACK_BUDGET_MS } from './listeners/views.js';

export interface ListenerDeps {
  bot: Bot;
  store: Store;
  people: SlackPeople;
  /** User group membership (`usergroups.list`, cached per workspace). */
  groups: SlackGroups;
  presenter: Presenter;
  logger: Logger;
  /** Times the acknowledgement budgets (the presenter's clock too: receipt times are compared across). */
  clock: Clock;
  /** Called when the app is uninstalled or some of its tokens are revoked. */
  onRevoked?: (revoked: SlackRevocation) => void | Promise<void>;
  /** Requests not acknowledged yet (the shared HTTP server's count): work starts once they are. */
  acks?: AckGate;
  /**
   * The workspace the app is installed in, when it is one (a single bot token): a payload from any other team
   * is a member of another organisation in a shared channel (Slack Connect).
   */
  homeTeam?: () => string | undefined;
}

/** Registers every listener, one file per kind of payload (`listeners/`); returns what they share. */
export function registerListeners(app: App, deps: ListenerDeps): ListenerContext {
  const ctx = { ...deps, log: deps.logger.child({ component: 'slack' }) };
  registerCommands(app, ctx);
  registerActions(app, ctx);
  registerViews(app, ctx);
  registerShortcuts(app, ctx);
  registerEvents(app, ctx);
  return ctx;
}
