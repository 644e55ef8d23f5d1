/**
 * Budget alerts (DESIGN §5): `settings alerts #channel|off` says where they go, `settings low-balance N|off`
 * when the balance is low enough for one. Both are the workspace's (its admins'), kept with its policy like
 * the queue, never a channel's rule. The channel must be one the bot can post in, as the platform says now:
 * a "no" or a "cannot tell" stores nothing (fail closed). The threshold starts (or stops) the workspace's
 * balance watch (live/balance-watcher.ts), read with the admin's key.
 */

import { policyWorkspace, storedPolicy } from '../approvals/workspace-policy.js';
import { type CommandContext, userError } from '../dispatch/context.js';
import { unwatchBalance, watchBalance } from '../live/balance-watcher.js';
import { requireWorkspaceAdmin } from '../people/admin.js';
import { isDmWorkspace } from '../ports/address.js';
import type { BudgetAlerts, ConversationAddress } from '../ports/index.js';
import { type CardText, channel, command, hole, md } from '../text/text.js';
import type { AlertChange } from './setting-change.js';

/** Audits one change (from, to), in the transaction that stores it. */
type Audit = (change: { from: string; to: string }) => Promise<void>;

/** Stores the change for the workspace and returns the confirmation's sentence. */
export async function changeAlerts(ctx: CommandContext, c: AlertChange, audit: Audit): Promise<CardText> {
  const workspace = policyWorkspace(ctx.req.conversation);
  if (isDmWorkspace(workspace)) throw userError('policy-in-dm');
  await requireWorkspaceAdmin(ctx);
  if (c.key === 'alerts' && c.channel) await requireBotCanPost(ctx, c.channel);
  const { store } = ctx.deps;
  const policy = await storedPolicy(store, workspace);
  const before = policy.alerts ?? {};
  const after = withChange(before, c);
  const watching = c.key === 'low-balance' && c.credits !== undefined;
  // The balance is read with the admin's key: read it now, so a key that cannot is refused here, not later.
  const credits = watching ? (await (await ctx.api()).me.get()).team.credits : undefined;
  const owner = watching ? await ctx.keyOwner() : undefined;
  const now = ctx.now();
  await store.transaction(async () => {
    const { alerts: _old, ...rest } = policy;
    await store.policies.put(workspace, Object.keys(after).length > 0 ? { ...rest, alerts: after } : rest);
    await audit({ from: shown(before, c), to: shown(after, c) });
    if (c.key !== 'low-balance') return;
    if (owner === undefined) await unwatchBalance(store, workspace);
    else await watchBalance(store, { workspace, owner, conversation: ctx.req.conversation, now });
  });
  ctx.deps.logger.info({ workspace, setting: c.key }, 'budget alerts changed');
  const balanceNow = credits === undefined ? md`` : md` The balance is ${credits} credits now.`;
  return md`${summary(after, c)}${balanceNow}`;
}

/** The platform's word that the bot can post there; anything else refuses (fail closed). */
async function requireBotCanPost(ctx: CommandContext, where: ConversationAddress): Promise<void> {
  let can: boolean | 'other-workspace' | undefined;
  try {
    can = await ctx.req.channelAccess?.botCanPost(where);
  } catch (error) {
    ctx.deps.logger.warn({ err: error, conversation: where }, 'alerts channel: access check failed');
    can = undefined;
  }
  if (can === 'other-workspace')
    throw userError('alerts-other-workspace', { what: ctx.req.capabilities?.workspaceNoun ?? 'workspace' });
  if (can === false) throw userError('alerts-cannot-post', { where: channel(where) });
  if (can !== true) throw userError('alerts-unverified', { where: channel(where) });
}

function withChange(alerts: BudgetAlerts, c: AlertChange): BudgetAlerts {
  const next = { ...alerts };
  if (c.key === 'alerts') {
    if (c.channel) next.channel = c.channel;
    else delete next.channel;
  } else if (c.credits !== undefined) next.lowBalance = c.credits;
  else delete next.lowBalance;
  return next;
}

/** The setting's value for the audit trail. */
const shown = (a: BudgetAlerts, c: AlertChange): string =>
  (c.key === 'alerts' ? a.channel : a.lowBalance?.toString()) ?? 'off';

function summary(a: BudgetAlerts, c: AlertChange): CardText {
  const where = a.channel ? channel(a.channel) : undefined;
  if (c.key === 'alerts') {
    if (!where) return md`Budget alerts are **off**: no channel gets them.`;
    const low =
      a.lowBalance === undefined
        ? md` Set ${command('settings', ['low-balance', hole('credits')])} to be told when the balance runs low.`
        : md` The low-balance alert (below **${a.lowBalance} credits**) goes there.`;
    return md`Budget alerts go to ${where}.${low}`;
  }
  if (a.lowBalance === undefined) return md`The low-balance alert is **off**.`;
  const goes = where
    ? md`posts one alert to ${where}`
    : md`has no channel yet: set ${command('settings', ['alerts', '#channel'])} for it to go anywhere`;
  return md`When the balance falls below **${a.lowBalance} credits**, the low-balance alert ${goes} (once, and again only after the balance rose to ${a.lowBalance} or above).`;
}

/** The settings card's "Budget alerts" row; undefined when neither is set. */
export function alertsLine(a: BudgetAlerts | undefined): CardText | undefined {
  if (!a || (a.channel === undefined && a.lowBalance === undefined)) return undefined;
  const where = a.channel ? md`alerts go to ${channel(a.channel)}` : md`no alerts channel`;
  const low =
    a.lowBalance === undefined ? md`` : md`; one when the balance falls below ${a.lowBalance} credits`;
  return md`${where}${low}`;
}
