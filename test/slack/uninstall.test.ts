/**
 * Removing the app from a workspace, through the real Bolt app with signed Events API callbacks:
 * `app_uninstalled` (or `tokens_revoked` naming the bot user) forgets the workspace: its members' linked keys,
 * channel settings, policy, subscriptions, watches, prefs and installation, in one transaction, and the poller
 * stops polling with its keys. Another workspace keeps everything. `tokens_revoked` naming only members
 * (`tokens.oauth`: user tokens) keeps the installation and the data; only the installer's user token goes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { installationId } from '../../adapters/slack/installations.js';
import { DEFAULT_CHANNEL_SETTINGS } from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import { demoTeam } from '../../src/simulator/index.js';
import { DEMO_KEY } from '../support/harness.js';
import { ALICE, CHANNEL, fixture, type SlackWorld, slackWorld } from './world.js';

const MINUTE = 60_000;
const OTHER_KEY = 'fl_live_other_workspace_key_0123456789abcdef';
/** Another workspace whose id starts like the test team's: a prefix must not reach it. */
const OTHER = 'T00012';
const OAUTH = {
  clientId: '7141926741253.7141999',
  clientSecret: 'c1i3nt-s3cr3t',
  stateSecret: 'st4te-s3cr3t',
};

let w: SlackWorld;
afterEach(() => w.close());

/** What Bolt stores after an install (adapters/slack/installations.ts), with the installer's user token. */
const installation = (team: string) => ({
  team: { id: team, name: `Team ${team}` },
  user: { id: 'U0INSTALLER', token: `xoxp-${team}-installer-token`, scopes: ['users:read'] },
  tokenType: 'bot',
  isEnterpriseInstall: false,
  appId: 'A0REELBOT',
  authVersion: 'v2',
  bot: { token: `xoxb-${team}-bot-token`, userId: 'U0BOT', id: 'B0BOT', scopes: ['commands', 'chat:write'] },
});

/** Two workspaces installed, each with a linked key, a calendar subscription (and its watch) and settings. */
async function twoWorkspaces(options: { oauth: boolean }) {
  w = await slackWorld({
    ...(options.oauth ? { slack: { oauth: OAUTH } } : {}),
    harness: {
      teams: [{ ...demoTeam(OTHER_KEY), name: 'Other team' }],
      // With one bot token (no OAuth) the other workspace's members reach the app as another organisation
      // (Slack Connect): allowed here, so they may subscribe their channel.
      ...(options.oauth ? {} : { deploymentKeyWorkspaces: ['slack:T0001', `slack:${OTHER}`] }),
    },
  });
  const { store } = w.h;
  for (const [team, key] of [
    ['T0001', DEMO_KEY],
    [OTHER, OTHER_KEY],
  ] as const) {
    if (options.oauth)
      await store.installations.put(installationId({ teamId: team }), JSON.stringify(installation(team)));
    const user = `slack:${team}:${ALICE}`;
    await store.keys.put(user, {
      apiKey: key,
      keyPrefix: key.slice(0, 12),
      teamId: 'team',
      teamName: 'Team',
    });
    await store.users.setTimeZone(user, 'Europe/Paris');
    await store.settings.put(`slack:${team}:${CHANNEL}`, { ...DEFAULT_CHANNEL_SETTINGS, threading: false });
    const { threading: _t, ...policy } = DEFAULT_CHANNEL_SETTINGS;
    await store.policies.put(`slack:${team}`, { ...policy, approval: 'spend' });
    const sub = await w.command('subscribe calendar', { team });
    await w.reply(sub.responseUrl);
  }
  expect(await rowsOf('T0001')).toEqual(everything(options.oauth));
  expect(await rowsOf(OTHER)).toEqual(everything(options.oauth));
}

/** The rows of `team` the purge is about, as booleans and counts. */
async function rowsOf(team: string) {
  const { store } = w.h;
  const user = `slack:${team}:${ALICE}`;
  const conversation = `slack:${team}:${CHANNEL}`;
  return {
    key: (await store.keys.get(user)) !== undefined,
    timeZone: (await store.users.getTimeZone(user)) !== undefined,
    settings: (await store.settings.get(conversation)).threading === false,
    policy: (await store.policies.get(`slack:${team}`)) !== undefined,
    subscriptions: (await store.subscriptions.inWorkspace(`slack:${team}`)).length,
    watches: (await store.watches.activeWhere({ conversation })).length,
    installation: (await store.installations.get(installationId({ teamId: team }))) !== undefined,
  };
}
const everything = (oauth: boolean) => ({
  key: true,
  timeZone: true,
  settings: true,
  policy: true,
  subscriptions: 1,
  watches: 1,
  installation: oauth,
});
const nothing = {
  key: false,
  timeZone: false,
  settings: false,
  policy: false,
  subscriptions: 0,
  watches: 0,
  installation: false,
};

/** Every `Authorization` header the video API received, as the simulator's HTTP server saw it. */
function recordApiKeys(): (key: string) => number {
  const seen: string[] = [];
  const sim = w.h.sim.sim;
  const handle = sim.handle.bind(sim);
  sim.handle = (req, res) => {
    seen.push(String(req.headers.authorization));
    handle(req, res);
  };
  return (key) => seen.filter((header) => header === `Bearer ${key}`).length;
}

async function sendEvent(name: 'app-uninstalled.json' | 'tokens-revoked.json', edit = {}) {
  const body = { ...fixture<Record<string, unknown>>(name), ...edit };
  const res = await w.send(JSON.stringify(body), 'application/json');
  expect(res.status).toBe(200);
}

const purgeLogs = () =>
  w.h.logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === 'Slack app removed from a workspace; its data purged');

describe('app_uninstalled', () => {
  it("purges the workspace's keys, settings, subscriptions, watches and installation; the poller stops using its key", async () => {
    await twoWorkspaces({ oauth: true });
    const callsWith = recordApiKeys();
    await w.h.advance(15 * MINUTE);
    expect(callsWith(DEMO_KEY)).toBeGreaterThan(0);

    // A card still to post in each workspace: the uninstalled one's goes with it.
    const { store } = w.h;
    for (const team of ['T0001', OTHER]) {
      await store.cards.put(`card@${team}`, {
        conversation: `slack:${team}:${CHANNEL}`,
        card: { title: md`Octopus facts` },
      });
      await store.outbox.enqueue('slack', { op: 'post-card', cardKey: `card@${team}` }, `post:${team}`);
    }

    await sendEvent('app-uninstalled.json');
    await w.fake.waitFor(async () => !(await rowsOf('T0001')).installation, 'the installation to go');
    expect(await rowsOf('T0001')).toEqual(nothing);
    expect(await rowsOf(OTHER)).toEqual(everything(true));
    expect(await store.cards.get('card@T0001')).toBeUndefined();
    expect(await store.cards.get(`card@${OTHER}`)).toBeDefined();
    expect(await store.outbox.depth('slack')).toBe(1);

    const purged = callsWith(DEMO_KEY);
    const other = callsWith(OTHER_KEY);
    for (let i = 0; i < 6; i++) await w.h.advance(15 * MINUTE);
    expect(callsWith(DEMO_KEY)).toBe(purged);
    expect(callsWith(OTHER_KEY)).toBeGreaterThan(other);

    // One info line with the counts, naming the workspace and never a key.
    const logged = purgeLogs();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 30, // info
      event: 'app_uninstalled',
      team: 'T0001',
      linkedKeys: 1,
      userPrefs: 1,
      channelSettings: 1,
      policies: 1,
      subscriptions: 1,
      watches: 1,
      cards: 1,
      outbox: 1,
      installations: 1,
    });
    expect(w.h.logs.join('\n')).not.toContain(DEMO_KEY);
  }, 30_000);

  it('purges the workspace with a single bot token too (no OAuth)', async () => {
    await twoWorkspaces({ oauth: false });
    await sendEvent('app-uninstalled.json');
    await w.fake.waitFor(() => purgeLogs().length === 1, 'the purge');
    expect(await rowsOf('T0001')).toEqual(nothing);
    expect(await rowsOf(OTHER)).toEqual(everything(false));
  }, 30_000);
});

describe('tokens_revoked', () => {
  it('keeps the installation and the data when only user tokens are revoked; purges when the bot token is', async () => {
    await twoWorkspaces({ oauth: true });
    const id = installationId({ teamId: 'T0001' });

    const tokens = (t: object) => ({
      event: { type: 'tokens_revoked', tokens: t, event_ts: '1700000041.000100' },
    });
    await sendEvent('tokens-revoked.json', tokens({ oauth: ['U0INSTALLER'] }));
    // Handled once logged (or, wrongly, once the installation is gone).
    await w.fake.waitFor(
      async () =>
        w.h.logs.some((line) => line.includes('Slack user tokens revoked')) ||
        !(await rowsOf('T0001')).installation,
      'the revocation to be handled',
    );
    expect(await rowsOf('T0001')).toEqual(everything(true));
    const kept = JSON.parse((await w.h.store.installations.get(id)) as string);
    expect(kept.bot.token).toBe('xoxb-T0001-bot-token');
    expect(kept.user).toEqual({ id: 'U0INSTALLER', scopes: ['users:read'] });
    expect(purgeLogs()).toEqual([]);

    // The installation still answers commands there.
    const sent = await w.command('whoami');
    await w.reply(sent.responseUrl);

    await sendEvent('tokens-revoked.json', tokens({ bot: ['U0BOT'] }));
    await w.fake.waitFor(async () => !(await rowsOf('T0001')).installation, 'the installation to go');
    expect(await rowsOf('T0001')).toEqual(nothing);
    expect(await rowsOf(OTHER)).toEqual(everything(true));
    expect(purgeLogs()).toHaveLength(1);
  }, 30_000);
});
