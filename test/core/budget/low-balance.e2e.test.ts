/**
 * `settings low-balance N` and `settings alerts #channel` (DESIGN §5, budgets), end to end on the core over
 * the simulator's HTTP, both profiles: when the balance falls below N, ONE alert reaches the alerts channel,
 * with the balance, the threshold, the run-out date at the active series' pace and what to do; again only
 * after the balance rose to N or above and fell once more — also across a restart of the poller.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { WATCHERS } from '../../../src/core/live/watchers.js';
import { Poller } from '../../../src/poller/index.js';
import { SIMULATOR_PROFILES } from '../../../src/simulator/options.js';
import { DEMO_KEY, textOf } from '../../support/harness.js';
import { card, confirmed, DAY, HOUR, MINUTE, type SeriesHarness, seriesHarness } from '../series/helpers.js';

const ALERTS = 'playground:W1:budget';
/** The bot can post in every channel of these tests, as the playground's adapter says of its channels. */
const postable = { botCanPost: async () => true };

describe.each(SIMULATOR_PROFILES)('low-balance alert (%s profile)', (profile) => {
  let h: SeriesHarness;
  let alice: RequestInfo;
  afterEach(() => h.close());

  const alerts = () => h.chat.channelMessages.filter((m) => m.conversation === ALERTS);
  const balance = () => h.sim.sim.balance(DEMO_KEY);

  /** A poller started afresh over the same store, as after a restart: the old one is stopped first. */
  async function restartedPoller(): Promise<(ms: number) => Promise<void>> {
    await h.poller.stop();
    const poller = new Poller({
      store: h.store,
      watchers: WATCHERS,
      apiFor: async (owner) => {
        const key = owner ? (await h.store.keys.get(owner))?.apiKey : undefined;
        return key ? h.deps.apiFor(key) : undefined;
      },
      clock: h.clock,
      logger: h.deps.logger,
      concurrency: 4,
      random: () => 0.5,
    });
    return async (ms) => {
      h.clock.advance(ms);
      await poller.tick();
      await h.sender.drain();
    };
  }

  it('posts one alert per crossing below the threshold, also across a restart', async () => {
    h = await seriesHarness({ simulator: { profile } });
    alice = { ...(await h.user('alice')), channelAccess: postable };
    const where = await h.run('settings alerts #budget', alice);
    expect(card(where).title, textOf(where)).toBe('Workspace settings updated');
    expect(textOf(where)).toContain('Budget alerts go to');
    const threshold = balance() - 10;
    const set = await h.run(`settings low-balance ${threshold}`, alice);
    expect(textOf(set)).toContain(`When the balance falls below **${threshold} credits**`);
    expect(textOf(set)).toContain('posts one alert to');
    expect(textOf(set)).toContain(`The balance is ${threshold + 10} credits now.`);
    expect(textOf(await h.run('settings', alice))).toContain(
      `Budget alerts: alerts go to ⟦#${ALERTS}⟧; one when the balance falls below ${threshold} credits`,
    );

    // A daily series: its first episode (20 credits) takes the balance below; the bot looks soon after.
    await confirmed(h, h.run('series create "Daily" --source ai_story --schedule "daily 09:00 UTC"', alice));
    await h.advance(2 * MINUTE);
    expect(alerts()).toHaveLength(1);
    const alert = alerts()[0]?.card;
    expect(alert?.title).toBe(`Low balance: ${threshold - 10} credits`);
    expect(alert?.text).toContain(`fell below **${threshold} credits**: ${threshold - 10} left.`);
    expect(alert?.text).toMatch(
      /At the pace of your active series \(≈\d+ credits a month\) it lasts until \w{3} \d+ \w{3} 2026/,
    );
    expect(alert?.text).toContain('/reel credits');
    // One GET /me per look, never more than every 15 minutes while nothing is spent.
    const looks = () => h.sim.sim.received({ method: 'GET', path: '/me' }).length;

    // A restart; the balance keeps falling (the 09:00 episode), still the same crossing: no second alert.
    const advance = await restartedPoller();
    const before = looks();
    for (let i = 0; i < 8; i++) await advance(15 * MINUTE);
    expect(balance()).toBeLessThan(threshold - 10);
    expect(alerts()).toHaveLength(1);
    expect(looks() - before).toBeLessThanOrEqual(9);

    // It rises to the threshold: nothing is said; the next episode takes it below again: a second alert.
    h.sim.sim.grantCredits(DEMO_KEY, threshold - balance() + 5);
    await advance(16 * MINUTE);
    expect(alerts()).toHaveLength(1);
    for (let spent = 0; alerts().length < 2 && spent < DAY; spent += 15 * MINUTE) await advance(15 * MINUTE);
    expect(alerts()).toHaveLength(2);
    for (let i = 0; i < 4; i++) await advance(HOUR);
    expect(alerts()).toHaveLength(2);

    const audit = await h.store.audit.list({ workspacePrefix: 'playground:W1' });
    const changes = audit.filter((e) => e.action === 'settings.change').map((e) => e.details?.setting);
    expect(changes).toEqual(expect.arrayContaining(['alerts', 'low-balance']));
  });

  it('without an alerts channel the confirmation says where to set one; off stops the watch', async () => {
    h = await seriesHarness({ simulator: { profile } });
    alice = { ...(await h.user('alice')), channelAccess: postable };
    const set = await h.run('settings low-balance 100', alice);
    expect(textOf(set)).toContain(
      'has no channel yet: set `/reel settings alerts #channel` for it to go anywhere',
    );
    expect(await h.store.watches.findActive('balance', 'playground:W1')).toBeDefined();
    // An admin without a key (and no shared one) cannot have the balance read: refused now, not later.
    const keyless = await h.user('dave', { key: null, admin: true });
    expect(textOf(await h.run('settings low-balance 50', keyless))).toContain(
      'You have not linked an API key yet.',
    );
    expect((await h.store.policies.get('playground:W1'))?.alerts?.lowBalance).toBe(100);
    const off = await h.run('settings low-balance off', alice);
    expect(textOf(off)).toContain('The low-balance alert is **off**.');
    expect(await h.store.watches.findActive('balance', 'playground:W1')).toBeUndefined();
  });

  it('refuses a channel it cannot post in, one it cannot check, another workspace’s, and no channel', async () => {
    h = await seriesHarness({ simulator: { profile } });
    const admin = await h.user('alice');
    const asking = (can: boolean | 'other-workspace' | undefined) => ({
      ...admin,
      channelAccess: { botCanPost: async () => can },
    });
    const cases: [RequestInfo, string, string][] = [
      [asking(false), 'settings alerts #secret', "I can't post in"],
      [asking(undefined), 'settings alerts #secret', "I couldn't check that I can post in"],
      [admin, 'settings alerts #secret', "I couldn't check that I can post in"],
      [asking('other-workspace'), 'settings alerts #secret', 'That channel belongs to another workspace'],
      [
        asking(true),
        'settings alerts budget',
        '`alerts` takes one channel of this workspace (type # and pick it), or `off`, not `budget`.',
      ],
      [asking(true), 'settings alerts #budget --here', 'is set for the whole workspace, not one channel'],
    ];
    for (const [who, text, words] of cases) expect(textOf(await h.run(text, who)), text).toContain(words);
    // A channel of another workspace, as an adapter would hand it over.
    const elsewhere = await h.bot.handleText(
      { ...asking(true), channels: [{ text: '#elsewhere', ref: 'playground:W2:elsewhere' }] },
      'settings alerts #elsewhere',
    );
    expect(textOf(elsewhere)).toContain('That channel belongs to another workspace');
    expect((await h.store.policies.get('playground:W1'))?.alerts).toBeUndefined();
  });
});
