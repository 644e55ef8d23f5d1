/**
 * The dashboard's own buttons (src/core/home/home.ts lays them out): "Link key" opens the `link` command's form,
 * "Unsubscribe" runs the `unsubscribe` command for the channel it names.
 */

import { createContext, userError } from '../../dispatch/context.js';
import { HOME_LINK_ACTION, HOME_UNSUBSCRIBE_ACTION } from '../../home/home.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { workspaceOf } from '../../ports/address.js';
import type { SubscriptionKind } from '../../ports/index.js';
import { mayManageFromHome } from '../../settings/subscription-visibility.js';
import { FEED_KINDS } from '../../settings/subscriptions.js';
import type { Response } from '../../text/cards.js';
import { linkCommand } from './link.js';
import { unsubscribeCommand } from './unsubscribe.js';

/** "Link key": the `link` command's private form. */
const linkAction: ActionSpec = {
  action: HOME_LINK_ACTION,
  async run(ctx): Promise<Response> {
    return await linkCommand.run(ctx, {} as never);
  },
};

/**
 * "Unsubscribe": the `unsubscribe` command run for the channel the button names, by the clicker, with the
 * same check (`requireAdmin` against that channel's settings); only a channel of the clicker's workspace, and
 * only one they are in (or any, for a workspace admin), as the dashboard shows them.
 */
const unsubscribeAction: ActionSpec = {
  action: HOME_UNSUBSCRIBE_ACTION,
  async run(ctx, value): Promise<Response> {
    const [kind, target, ...rest] = value.split('|');
    const conversation = rest.join('|');
    if (!FEED_KINDS.includes(kind as SubscriptionKind) || target === undefined || !conversation)
      throw userError('bad-button');
    let sameWorkspace = false;
    try {
      sameWorkspace = workspaceOf(conversation) === workspaceOf(ctx.req.user);
    } catch {
      throw userError('bad-button');
    }
    if (!sameWorkspace) throw userError('bad-button');
    if (!(await mayManageFromHome(ctx.req, conversation))) throw userError('home-unsubscribe-not-member');
    const there = createContext({ ...ctx.req, conversation }, ctx.deps);
    // A series' id, or which digest (`daily`, `weekly`): both go where `unsubscribe` reads them.
    const args = {
      what: kind,
      ...(kind === 'series' || kind === 'digest' ? { series: decodeURIComponent(target) } : {}),
    };
    return unsubscribeCommand.run(there, args as never);
  },
};

/** The dashboard's own buttons, registered with the account commands. */
export const HOME_ACTIONS: readonly ActionSpec[] = [linkAction, unsubscribeAction];
