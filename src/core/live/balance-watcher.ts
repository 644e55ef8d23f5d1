/**
 * The low-balance alert (DESIGN §5, budgets: `settings low-balance N`): one `balance` watch per workspace
 * reads the team's balance (GET /me, as the series' budget does) every 15 minutes, and soon after a spend the
 * bot makes (`lookSoonAtBalance`). When the balance falls below the threshold, ONE alert goes to the
 * workspace's alerts channel; again only after it rose to the threshold or above and fell once more.
 *
 * The crossing state lives in the watch's state, committed by the poller in one transaction with the alert's
 * outbox row under the watch's lease, and the dedupe key names the watch and the crossing: a restart, a
 * retried look or a second replica never posts one crossing twice.
 */

import { storedPolicy } from '../approvals/workspace-policy.js';
import { workspaceOf } from '../ports/address.js';
import type { ConversationAddress, Store, UserAddress, Watch } from '../ports/index.js';
import { lastsFor, type Pace, teamPace } from '../series/pace.js';
import type { Card } from '../text/cards.js';
import { command, md } from '../text/text.js';
import { postToChannel } from './live-card.js';
import { keyTrouble, type WatchContext, type Watcher, type WatchResult, type WatchStop } from './watcher.js';

const MINUTE = 60_000;
/** A balance moves with spends; between them a look every 15 minutes is within any rate budget. */
const BALANCE_INTERVAL_MS = 15 * MINUTE;
/** After a spend the bot made, the balance is read again this soon. */
const AFTER_SPEND_MS = MINUTE;
/** The watch lasts as long as the setting; it still needs an expiry, so it is far away. */
const BALANCE_WATCH_TTL_MS = 100 * 365 * 24 * 60 * MINUTE;
const background = { priority: 'background' } as const;

/** What the watch remembers between looks. */
interface BalanceState {
  /** Whether the last look found the balance below the threshold (unknown at first: counts as above). */
  below: boolean;
  /** How many times the balance fell below the threshold: each crossing alerts once. */
  crossings: number;
}

function readState(raw: Record<string, unknown>): BalanceState {
  return {
    below: raw.below === true,
    crossings: typeof raw.crossings === 'number' ? raw.crossings : 0,
  };
}

/**
 * Starts (or hands to `owner`'s key) the workspace's balance watch, which looks soon; call inside the
 * transaction that stores the threshold.
 */
export async function watchBalance(
  store: Store,
  input: { workspace: string; owner: UserAddress; conversation: ConversationAddress; now: number },
): Promise<void> {
  const existing = await store.watches.findActive('balance', input.workspace);
  const nextCheckAt = input.now + AFTER_SPEND_MS;
  if (existing?.owner === input.owner) {
    await store.watches.update(existing.id, { nextCheckAt });
    return;
  }
  // Another key reads it from now on: a new watch that carries the crossing on (below stays below).
  if (existing) await store.watches.update(existing.id, { status: 'done' });
  await store.watches.add({
    kind: 'balance',
    target: input.workspace,
    owner: input.owner,
    conversation: input.conversation,
    cardKey: null,
    state: existing?.state ?? { below: false, crossings: 0 },
    nextCheckAt,
    expiresAt: input.now + BALANCE_WATCH_TTL_MS,
  });
}

/** Stops the workspace's balance watch (`settings low-balance off`). */
export async function unwatchBalance(store: Store, workspace: string): Promise<void> {
  const existing = await store.watches.findActive('balance', workspace);
  if (existing) await store.watches.update(existing.id, { status: 'done' });
}

/** A spend the bot just made in `conversation`: its workspace's balance is read again within a minute. */
export async function lookSoonAtBalance(
  store: Store,
  conversation: ConversationAddress,
  now: number,
): Promise<void> {
  const w = await store.watches.findActive('balance', workspaceOf(conversation));
  if (w && w.nextCheckAt > now + AFTER_SPEND_MS)
    await store.watches.update(w.id, { nextCheckAt: now + AFTER_SPEND_MS });
}

async function check(ctx: WatchContext, watch: Watch): Promise<WatchResult> {
  const policy = await storedPolicy(ctx.store, watch.target);
  const threshold = policy.alerts?.lowBalance;
  // Turned off meanwhile: stop quietly.
  if (threshold === undefined) return { state: watch.state, done: true };
  const credits = (await ctx.api.me.get(background)).team.credits;
  const before = readState(watch.state);
  const below = credits < threshold;
  const crossed = below && !before.below;
  const state: BalanceState = { below, crossings: before.crossings + (crossed ? 1 : 0) };
  const result = { state: { ...state }, done: false, nextCheckInMs: BALANCE_INTERVAL_MS };
  const channel = policy.alerts?.channel;
  // No alerts channel: the crossing is kept (the settings confirmation said the alert needs one).
  if (!crossed || !channel) return result;
  const zone = (await ctx.store.settings.get(channel)).timeZone ?? 'UTC';
  const pace = await teamPace(ctx.api, { cost: (model) => modelCost(ctx, model), call: background });
  const card = lowBalanceCard({ credits, threshold, pace, now: ctx.now, zone });
  return {
    ...result,
    async apply(store) {
      await postToChannel(store, {
        conversation: channel,
        card,
        dedupeKey: `low-balance:${watch.id}:${state.crossings}`,
      });
    },
  };
}

async function modelCost(ctx: WatchContext, model: string): Promise<number | undefined> {
  const catalog = await ctx.api.options.get('models', background);
  return catalog.items.find((i) => i.value === model)?.credits;
}

function lowBalanceCard(o: {
  credits: number;
  threshold: number;
  pace: Pace | undefined;
  now: number;
  zone: string;
}): Card {
  const runOut =
    o.pace && o.pace.perDay > 0
      ? md` At the pace of your ${o.pace.series === 1 ? md`active series` : md`${o.pace.series} active series`} (≈${o.pace.perMonth} credits a month) it lasts ${lastsFor(o.credits, { perDay: o.pace.perDay, now: o.now, zone: o.zone })}.`
      : md``;
  return {
    title: md`Low balance: ${o.credits} credits`,
    tone: 'warning',
    text: md`The team’s balance fell below **${o.threshold} credits**: ${o.credits} left.${runOut}\nTop up credits in the video service’s dashboard; ${command('credits')} shows the balance and what was spent.`,
    context: md`Budget alert · ${command('settings', ['low-balance'])} changes the threshold`,
  };
}

export const balanceWatcher: Watcher = {
  kind: 'balance',
  minIntervalMs: MINUTE,
  maxIntervalMs: BALANCE_INTERVAL_MS,
  // A balance can wait for looks at running jobs when the key's budget runs short.
  deferrable: () => true,
  check,
  // A key that stops working ends the watch: the alerts channel (else where it was set) is told how to resume.
  async expire({ store, watch, reason }: WatchStop) {
    const policy = await storedPolicy(store, watch.target);
    const threshold = policy.alerts?.lowBalance;
    if (threshold === undefined) return;
    const why = reason === 'expired' ? md`it ran for a long time` : keyTrouble(reason, md`read the balance`);
    await postToChannel(store, {
      conversation: policy.alerts?.channel ?? watch.conversation,
      card: {
        title: md`Low-balance alerts stopped`,
        tone: 'warning',
        text: md`The balance is no longer watched: ${why}. Run ${command('settings', ['low-balance', String(threshold)])} to watch it again with your key.`,
      },
      dedupeKey: `low-balance:${watch.id}:stopped`,
    });
  },
};
