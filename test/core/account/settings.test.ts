import { afterEach, describe, expect, it } from 'vitest';
import { MODULES } from '../../../src/core/commands/index.js';
import { createBot } from '../../../src/core/dispatch/bot.js';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { formatMention, parseMentions } from '../../../src/core/people/mentions.js';
import { DEFAULT_CHANNEL_SETTINGS } from '../../../src/core/ports/index.js';
import { normalizeTimeZone } from '../../../src/core/settings/time-zone.js';
import { mention } from '../../../src/core/text/text.js';
import { asTyped } from '../../support/commands-as-typed.js';
import { mentionsAsTyped, typedBy } from '../../support/mentions-as-typed.js';
import { cardOf, createWorld, textOf, type World } from './world.js';

describe('settings', () => {
  let w: World;
  afterEach(async () => w.close());

  it('shows every setting with its default', async () => {
    w = await createWorld();
    const response = await w.run('settings');
    expect(response).toMatchObject({ kind: 'message', visibility: 'ephemeral' });
    const fields = Object.fromEntries((cardOf(response).fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toEqual({
      Threading: 'on (milestones in the card’s thread)',
      'Time zone': 'not set (members’ own zones, else UTC)',
      Approval: 'off — publishing needs no approval · from the workspace policy',
      Approvers: 'nobody yet · from the workspace policy',
      'Self-approval': 'not allowed · from the workspace policy',
      'Spend threshold': '50 credits · from the workspace policy',
      'Request lifetime': '1 day · from the workspace policy',
      Roles:
        'publish: everyone · from the workspace policy\nspend credits: everyone · from the workspace policy\n' +
        'change settings and subscriptions: everyone · from the workspace policy',
    });
    expect(w.calls).toEqual([]);
  });

  it('sets threading and the channel time zone, announced in the channel', async () => {
    w = await createWorld();
    const off = await w.run('settings threading off');
    expect(off).toMatchObject({ kind: 'message', visibility: 'channel' });
    expect(cardOf(off).title).toBe('Channel settings updated');
    expect(cardOf(off).text).toContain('Threading is **off**: milestones go to the channel.');
    expect((await w.store.settings.get(w.conversation)).threading).toBe(false);

    const tz = await w.run('settings timezone europe/paris');
    expect(cardOf(tz).text).toContain('The channel time zone is **Europe/Paris**');
    expect((await w.store.settings.get(w.conversation)).timeZone).toBe('Europe/Paris');
    await w.run('settings timezone none');
    const settings = await w.store.settings.get(w.conversation);
    expect(settings.timeZone).toBeUndefined();
    expect(settings.threading).toBe(false);
  });

  it('stores the approval settings as plain values, for the workspace', async () => {
    w = await createWorld();
    await w.run('settings role admin @alice');
    await w.run('settings approval spend');
    await w.run('settings approvers @alice @bob, @bob');
    await w.run('settings self-approval on');
    await w.run('settings spend-threshold 120');
    await w.run('settings role publish @carol');
    await w.run('settings lifetime 12h');
    const s = await w.store.policies.get('playground:W1');
    expect(s).toMatchObject({
      requestLifetimeMs: 12 * 60 * 60_000,
      approval: 'spend',
      approvers: ['playground:W1:alice', 'playground:W1:bob'],
      selfApproval: true,
      spendThreshold: 120,
      roles: { publish: ['playground:W1:carol'], spend: 'everyone', admin: ['playground:W1:alice'] },
    });
    const card = cardOf(await w.run('settings'));
    expect(card.fields?.find((f) => f.label === 'Approval')?.value).toBe(
      'spend — publishing, scheduling and creations over 120 credits need an approver · from the workspace policy',
    );
    // Mentions are tokens the adapters render natively (src/core/text/text.ts).
    expect(card.fields?.find((f) => f.label === 'Approvers')?.value).toBe(
      `${mention('playground:W1:alice')}, ${mention('playground:W1:bob')} · from the workspace policy`,
    );
    await w.run('settings role publish everyone');
    await w.run('settings approvers none');
    expect(await w.store.policies.get('playground:W1')).toMatchObject({
      approvers: [],
      roles: { publish: 'everyone' },
    });
    // The channel itself keeps only its presentation settings.
    expect(await w.store.settings.get(w.conversation)).toEqual(DEFAULT_CHANNEL_SETTINGS);
  });

  it('warns when approval is on without approvers', async () => {
    w = await createWorld();
    await w.run('settings role admin @alice');
    const response = await w.run('settings approval publish');
    expect(cardOf(response).text).toContain(
      'Approval is **publish**: publishing and scheduling need an approver',
    );
    expect(cardOf(response).text).toContain('⚠️ Approval is on but nobody is an approver');
  });

  it('answers bad values with usage and example and changes nothing', async () => {
    w = await createWorld();
    for (const [text, words] of [
      ['settings threading maybe', '`threading` takes `on` or `off`, not `maybe`.'],
      ['settings timezone Mars/Olympus', "`Mars/Olympus` isn't an IANA time zone."],
      ['settings timezone CET', "`CET` isn't an IANA time zone."],
      ['settings approval always', '`approval` takes `off`, `publish` or `spend`, not `always`.'],
      [
        'settings spend-threshold lots',
        '`spend-threshold` takes a whole number of credits (0 or more), not `lots`.',
      ],
      ['settings spend-threshold -5', 'not `-5`'],
      [
        'settings role owner @alice',
        '`role` takes `publish`, `spend` or `admin`, then mentions or `everyone`',
      ],
      ['settings role publish', 'not `publish`'],
      ['settings approvers', '`settings approvers` needs a value: mentions of people or groups, or `none`.'],
      ['settings colour blue', "`colour` isn't a valid `key`. Choose one of: threading, timezone, approval"],
    ] as const) {
      const response = await w.run(text);
      expect(textOf(response), text).toContain(words);
      expect(textOf(response), text).toContain('Usage: `/reel settings [key] [value…]');
      expect(textOf(response), text).toContain('Example: `/reel settings`');
    }
    expect(await w.store.settings.get(w.conversation)).toEqual(DEFAULT_CHANNEL_SETTINGS);
  });

  it('once admins are set, only they may change settings, and they cannot lock themselves out', async () => {
    w = await createWorld();
    // alice is a workspace admin by the platform's account; bob becomes one through the `admin` role.
    const alice = await w.user('alice');
    const bob = await w.user('bob');
    const dave = await w.user('dave');
    expect(textOf(await w.run('settings approval publish', bob))).toContain(
      'are set for the whole workspace by the workspace',
    );
    await w.run('settings role admin @bob', alice);
    expect(textOf(await w.run('settings role admin @carol', bob))).toContain(
      'That admin list leaves you out, and only admins may change it back.',
    );
    const changed = await w.run('settings approval publish', bob);
    expect(cardOf(changed).title).toBe('Workspace settings updated');
    // One sentence says where it applies (it used to trail the summary as "… . (the whole workspace)").
    expect(cardOf(changed).text).toContain(
      'Approval is **publish**: publishing and scheduling need an approver.\nIt applies to the whole workspace.',
    );
    const refused = await w.run('settings threading off', dave);
    expect(textOf(refused)).toContain(
      `Only ${mention('playground:W1:bob')} may change settings in this channel.`,
    );
    expect((await w.store.settings.get(w.conversation)).threading).toBe(true);
    // Showing the settings stays open to everyone.
    expect(cardOf(await w.run('settings', dave)).title).toBe('Channel settings');
  });

  it('a channel tightens the workspace policy with --here, never loosens it; legacy channel rules stay', async () => {
    w = await createWorld();
    await w.run('settings approval publish');
    await w.run('settings approvers @bob @carol');
    await w.run('settings spend-threshold 100');
    const loosen = await w.run('settings approval off --here');
    expect(textOf(loosen)).toContain('The workspace policy requires approval `publish`');
    expect(textOf(loosen)).toContain('the workspace’s admins');
    expect(textOf(await w.run('settings spend-threshold 200 --here'))).toContain(
      'a spend threshold of 100 credits or less',
    );
    expect(textOf(await w.run('settings self-approval on --here'))).toContain('requires no self-approval');
    expect(textOf(await w.run('settings lifetime 2d --here'))).toContain('requires requests to expire');
    await w.run('settings approval spend --here');
    await w.run('settings approvers @bob --here');
    expect((await w.store.settings.get(w.conversation)).here).toEqual({
      approval: 'spend',
      approvers: ['playground:W1:bob'],
    });
    const card = cardOf(await w.run('settings'));
    expect(card.fields?.find((f) => f.label === 'Approval')?.value).toContain('spend — ');
    expect(card.fields?.find((f) => f.label === 'Approval')?.value).toContain('· from this channel');
    // The workspace loosening later never loosens the channel: its tightening still applies.
    await w.run('settings approval off');
    expect(cardOf(await w.run('settings')).fields?.find((f) => f.label === 'Approval')?.value).toMatch(
      /^spend — /,
    );
    // A row written before workspace policies keeps its governance as this channel's tightening.
    const legacy = 'playground:W1:old';
    await w.store.settings.put(legacy, {
      ...DEFAULT_CHANNEL_SETTINGS,
      approval: 'publish',
      approvers: ['x:y:z'],
    });
    const old = await w.user('eve');
    const there = cardOf(await w.run('settings', { ...old, conversation: legacy }));
    expect(there.fields?.find((f) => f.label === 'Approval')?.value).toMatch(
      /^publish — .* · from this channel$/,
    );
  });
});

describe('settings by a guest of another organisation (Slack Connect)', () => {
  let w: World;
  afterEach(async () => w.close());

  /** mallory: a member of another organisation in this shared channel, an admin of her own one. */
  const guestOf = async (org: string) => ({
    ...(await w.user('mallory')),
    isWorkspaceAdmin: true,
    externalOrg: org,
  });

  it('her own organisation’s admin flag counts for nothing: no rule, channel setting or subscription changes', async () => {
    w = await createWorld();
    const mallory = await guestOf('playground:W9');
    for (const typed of ['settings approval publish', 'settings threading off', 'subscribe calendar']) {
      const refused = textOf(await w.run(typed, mallory));
      expect(refused, typed).toContain(
        'Only members of this workspace change its settings and subscriptions',
      );
    }
    expect(await w.store.policies.get('playground:W1')).toBeUndefined();
    expect(await w.store.settings.get(w.conversation)).toEqual(DEFAULT_CHANNEL_SETTINGS);
    expect(await w.store.subscriptions.list(w.conversation)).toEqual([]);
    expect(textOf(await w.run('audit --workspace', mallory))).toContain('admins can see the whole workspace');
  });

  it('an allowed organisation’s guest configures only as the workspace’s admin role names her', async () => {
    w = await createWorld();
    const bot = createBot(
      { ...w.deps, deploymentKeyWorkspaces: ['playground:W1', 'playground:W9'] },
      MODULES,
    );
    const run = async (typed: string, who: RequestInfo) =>
      asTyped(await bot.handleText(typedBy(who, typed), typed));
    const mallory = await guestOf('playground:W9');
    const flagOnly = textOf(await run('settings approval publish', mallory));
    expect(flagOnly).toContain('are set for the whole workspace by');
    expect(await w.store.policies.get('playground:W1')).toBeUndefined();

    await run(`settings role admin @alice @mallory`, await w.user('alice'));
    const named = await run('settings approval publish', mallory);
    expect(cardOf(named).title, textOf(named)).toBe('Workspace settings updated');
    expect((await w.store.policies.get('playground:W1'))?.approval).toBe('publish');
  });
});

describe('settings on Slack and Discord', () => {
  let w: World;
  afterEach(async () => w.close());

  it('maps Slack user and user-group mentions', async () => {
    w = await createWorld({ platform: 'slack' });
    const alice = await w.user('alice', { memberOf: ['slack-group:S0PUBLISH'] });
    await w.run('settings approvers <@U0BOB|bob> <!subteam^S0PUBLISH|@publishers>', alice);
    expect((await w.store.policies.get('slack:W1'))?.approvers).toEqual([
      'slack:W1:U0BOB',
      'slack-group:S0PUBLISH',
    ]);
    const card = cardOf(await w.run('settings', alice));
    expect(card.fields?.find((f) => f.label === 'Approvers')?.value).toBe(
      `${mention('slack:W1:U0BOB')}, ${mention('slack-group:S0PUBLISH')} · from the workspace policy`,
    );
    // A member of the admin group is an admin.
    const ok = await w.run('settings role admin <!subteam^S0PUBLISH>', alice);
    expect(cardOf(ok).title).toBe('Workspace settings updated');
    expect(textOf(await w.run('settings approvers @bob', alice))).toContain(
      "`@bob` isn't a mention I can read. Mention people or a user group",
    );
  });

  it('maps Discord user and role mentions', async () => {
    w = await createWorld({ platform: 'discord' });
    await w.run('settings approvers <@123456> <@!7890> <@&555>');
    expect((await w.store.policies.get('discord:W1'))?.approvers).toEqual([
      'discord:W1:123456',
      'discord:W1:7890',
      'discord-role:555',
    ]);
  });
});

describe('mention and time zone helpers', () => {
  it('parses mentions per platform and formats them back', () => {
    // Each adapter finds its platform's mentions (mentionsAsTyped uses the adapters' own functions); the core
    // reads only what they found.
    const read = (text: string, user: string) =>
      parseMentions(text, { mentioned: mentionsAsTyped(text, user) });
    expect(read('<@U1> <!subteam^S2|@the team>', 'slack:T1:U9')).toEqual({
      ok: true,
      value: ['slack:T1:U1', 'slack-group:S2'],
    });
    expect(read('<@&42>,<@43> <@!43>', 'discord:G1:1')).toEqual({
      ok: true,
      value: ['discord-role:42', 'discord:G1:43'],
    });
    expect(read('@ann @bo @&reviewers', 'playground:W:x')).toEqual({
      ok: true,
      value: ['playground:W:ann', 'playground:W:bo', 'playground-group:reviewers'],
    });
    // Another platform's syntax is no mention here, and a stray word is named in the answer.
    expect(read('<@&42>', 'slack:T1:U9')).toMatchObject({ ok: false, error: { code: 'bad-mention' } });
    expect(read('<@U1> bob', 'slack:T1:U9')).toMatchObject({
      ok: false,
      error: { code: 'bad-mention', params: { value: 'bob' } },
    });
    // Text that only looks like a mention, with no mention found by the adapter, is refused.
    expect(parseMentions('<@U1>', {})).toMatchObject({ ok: false });
    // The core writes mention tokens only; adapters render them (`<@U1>`, `<@&42>`, `<!subteam^S2>`, `@ann`).
    expect(formatMention('slack:T1:U1')).toBe('⟦@slack:T1:U1⟧');
    expect(formatMention('discord-role:42')).toBe('⟦@discord-role:42⟧');
    expect(formatMention('slack-group:S2')).toBe('⟦@slack-group:S2⟧');
    expect(formatMention('playground:W:ann')).toBe('⟦@playground:W:ann⟧');
    expect(formatMention('not an address')).toBe('`not an address`');
  });

  it('accepts IANA zones in any case, refuses abbreviations and offsets', () => {
    expect(normalizeTimeZone('america/new_york')).toBe('America/New_York');
    expect(normalizeTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(normalizeTimeZone('utc')).toBe('UTC');
    for (const bad of ['CET', '+02:00', 'Mars/Olympus', 'Europe', ''])
      expect(normalizeTimeZone(bad)).toBeUndefined();
  });
});

describe('tz', () => {
  let w: World;
  afterEach(async () => w.close());

  it('shows the zone in use and where it comes from', async () => {
    w = await createWorld();
    const plain = await w.user('plain');
    expect(textOf(await w.run('tz', plain))).toContain(
      'Your time zone: UTC\nIt is Mon 08:00 there (the default: nothing else is set).',
    );
    const slacker = await w.user('slacker', { platformTimeZone: 'America/Chicago' });
    expect(textOf(await w.run('tz', slacker))).toContain(
      'Your time zone: America/Chicago\nIt is Mon 02:00 there (from your chat profile).',
    );
    await w.run('settings timezone Asia/Tokyo', plain);
    expect(textOf(await w.run('tz', plain))).toContain(
      'Asia/Tokyo\nIt is Mon 17:00 there (the channel’s default',
    );
  });

  it('sets the caller’s zone, validated, and dates follow it', async () => {
    w = await createWorld();
    const alice = await w.user('alice', { platformTimeZone: 'America/Chicago' });
    const set = await w.run('tz europe/berlin', alice);
    expect(cardOf(set).title).toBe('Time zone set: Europe/Berlin');
    expect(await w.store.users.getTimeZone(alice.user)).toBe('Europe/Berlin');
    expect(textOf(await w.run('tz', alice))).toContain('(you set it with `/reel tz`)');
    // The ledger's times follow it.
    const ledger = cardOf(await w.run('credits', alice)).table;
    expect(ledger?.rows.map((row) => row[3])).toContain('Mon 23 Nov 2026, 09:00');

    const bad = await w.run('tz Berlin', alice);
    expect(textOf(bad)).toContain(
      "`Berlin` isn't an IANA time zone. Try `Europe/Paris` or `America/New_York`.",
    );
    expect(textOf(bad)).toContain('Usage: `/reel tz [zone]`');
    expect(await w.store.users.getTimeZone(alice.user)).toBe('Europe/Berlin');
  });
});
