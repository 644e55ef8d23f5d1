/**
 * Discord's raw interaction JSON (the fixtures are real payload shapes) → the adapter's one internal shape,
 * and what it refuses. The gateway path (discord.js objects) is covered end to end by the e2e tests.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadInteraction, fromRaw } from '../../adapters/discord/inbound/from-raw.js';
import { DISCORD_CAPABILITIES } from '../../adapters/discord/index.js';
import { requestInfoOf } from '../../adapters/discord/request-info.js';
import type { Json } from './world.js';

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Json;

const base = {
  id: '1300000000000009001',
  token: 'aW50ZXJhY3Rpb246MTMwMDAwMDAwMDAwMDAwOTAwMTp0b2tlbg',
  applicationId: '1300000000000000001',
  guildId: '1300000000000000100',
  channelId: '1300000000000000200',
  user: { id: '1300000000000000501', name: 'Alice' },
  roles: ['1300000000000000400'],
  rolesKnown: true,
  // The fixture member has every permission (Manage Server included).
  permissions: '562949953421311',
};

describe('raw interactions', () => {
  it('reads a PING', () => {
    expect(fromRaw(fixture('ping'))).toEqual({ kind: 'ping' });
  });

  it('reads a slash command with its subcommand and options', () => {
    expect(fromRaw(fixture('chat-input'))).toEqual({
      kind: 'command',
      ...base,
      path: { command: 'reel', sub: 'create' },
      options: { script: 'Octopuses have three hearts.' },
    });
    const grouped = fixture('chat-input');
    grouped.data.options = [
      {
        name: 'series',
        type: 2,
        options: [{ name: 'show', type: 1, options: [{ name: 'series', type: 3, value: 'night' }] }],
      },
    ];
    grouped.member.nick = 'Ali';
    expect(fromRaw(grouped)).toMatchObject({
      path: { command: 'reel', group: 'series', sub: 'show' },
      options: { series: 'night' },
      user: { name: 'Ali' },
    });
  });

  it('reads the focused option of an autocomplete', () => {
    expect(fromRaw(fixture('autocomplete'))).toMatchObject({
      kind: 'autocomplete',
      path: { command: 'reel', sub: 'show' },
      focused: { name: 'video', value: 'oct' },
    });
  });

  it('reads button clicks and select choices with their message', () => {
    const click = fixture('button');
    click.message.embeds = [{ title: 'Delete “X”?' }];
    click.message.components = [
      { type: 1, components: [{ type: 2, style: 4, label: 'Delete', custom_id: 'r|video.render|vid_1' }] },
    ];
    expect(fromRaw(click)).toEqual({
      kind: 'component',
      ...base,
      customId: 'r|video.render|vid_1',
      message: { id: '1300000000000000700', flags: 0, title: 'Delete “X”?' },
      label: 'Delete',
    });
    expect(fromRaw(fixture('string-select'))).toMatchObject({
      kind: 'component',
      customId: 'r|publish.account|',
      values: ['x'],
    });
  });

  it('reads modal submissions made of labels (text inputs and selects) and legacy action rows', () => {
    expect(fromRaw(fixture('modal-submit'))).toEqual({
      kind: 'modal',
      ...base,
      customId: 'm|k|account.link|',
      fields: { key: { value: 'fl_live_x' }, privacy: { values: ['public'] } },
    });
    const legacy = fixture('modal-submit');
    legacy.data.components = [{ type: 1, components: [{ type: 4, custom_id: 'key', value: 'abc' }] }];
    expect(fromRaw(legacy)).toMatchObject({ fields: { key: { value: 'abc' } } });
  });

  it('reads direct messages (no guild) as conversations of `@me`', () => {
    const dm = fixture('chat-input');
    delete dm.guild_id;
    delete dm.guild;
    dm.user = dm.member.user;
    delete dm.member;
    const inbound = fromRaw(dm);
    if (inbound.kind !== 'command') throw new Error('expected a command');
    expect(inbound.roles).toEqual([]);
    expect(requestInfoOf(inbound)).toEqual({
      platform: 'discord',
      capabilities: DISCORD_CAPABILITIES,
      sharesTimeZones: false,
      user: 'discord:@me:1300000000000000501',
      userName: 'Alice',
      conversation: 'discord:@me:1300000000000000200',
    });
  });

  it('turns the member’s roles into `discord-role:` references and the clicked message into an address', () => {
    const inbound = fromRaw(fixture('button'));
    if (inbound.kind !== 'component') throw new Error('expected a click');
    expect(requestInfoOf(inbound, inbound.message.id)).toEqual({
      platform: 'discord',
      capabilities: DISCORD_CAPABILITIES,
      sharesTimeZones: false,
      user: 'discord:1300000000000000100:1300000000000000501',
      userName: 'Alice',
      conversation: 'discord:1300000000000000100:1300000000000000200',
      memberOf: ['discord-role:1300000000000000400'],
      isWorkspaceAdmin: true,
      message: 'discord:1300000000000000100:1300000000000000200:1300000000000000700',
    });
  });

  it('a member without Manage Server is no workspace admin; a guild click without its member has unknown roles', () => {
    const plain = fixture('button');
    plain.member.permissions = String(0x400 | 0x800);
    const inbound = fromRaw(plain);
    if (inbound.kind !== 'component') throw new Error('expected a click');
    expect(requestInfoOf(inbound).isWorkspaceAdmin).toBeUndefined();
    expect(requestInfoOf(inbound).membershipUnverified).toBeUndefined();
    const memberless = fixture('button');
    memberless.user = memberless.member.user;
    delete memberless.member;
    const click = fromRaw(memberless);
    if (click.kind !== 'component') throw new Error('expected a click');
    const unknown = requestInfoOf(click);
    expect(unknown.membershipUnverified).toBe(true);
    expect(unknown.memberOf).toBeUndefined();
  });

  it('refuses what is not an interaction', () => {
    for (const bad of [
      null,
      {},
      { type: 2 },
      { ...fixture('chat-input'), member: undefined, user: undefined },
    ]) {
      expect(() => fromRaw(bad)).toThrow(BadInteraction);
    }
    const noMessage = fixture('button');
    delete noMessage.message;
    expect(() => fromRaw(noMessage)).toThrow(BadInteraction);
    expect(fromRaw({ ...fixture('chat-input'), type: 99 })).toMatchObject({ kind: 'other' });
  });

  it('names the first field that is wrong', () => {
    const chat = fixture('chat-input');
    const member = chat.member as Json;
    expect(() => fromRaw({ ...chat, member: { ...member, roles: 'admin' } })).toThrow(
      'interaction.member.roles: expected a list',
    );
    expect(() => fromRaw({ ...chat, member: { ...member, user: { id: 7, username: 'a' } } })).toThrow(
      'interaction.member.user.id: expected a string',
    );
    const data = chat.data as Json;
    expect(() => fromRaw({ ...chat, data: { ...data, options: [{ type: 3, name: 1 }] } })).toThrow(
      'interaction.data.options[0].name: expected a string',
    );
    expect(() => fromRaw({ ...chat, id: null })).toThrow('interaction.id: expected a string');
  });

  it('reads what it knows and lets the rest be (a tolerant reader)', () => {
    const chat = fixture('chat-input');
    const member = chat.member as Json;
    const grown = {
      ...chat,
      entitlements: [],
      member: { ...member, nick: null, avatar_decoration_data: { asset: 'x' } },
      data: { ...(chat.data as Json), guild_id: '1' },
    };
    expect(fromRaw(grown)).toMatchObject({ kind: 'command', user: { id: base.user.id } });
  });

  it('answers any JSON with an interaction or a BadInteraction, never another error', () => {
    const known = ['ping', 'chat-input', 'autocomplete', 'button', 'string-select', 'modal-submit'].map(
      fixture,
    );
    // Any JSON at all, and the real payloads with one top-level field replaced by any JSON.
    const mutated = fc
      .tuple(fc.constantFrom(...known), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }))
      .map(([payload, key, value]) => {
        const keys = Object.keys(payload);
        return { ...payload, [keys[key.length % keys.length] ?? key]: value };
      });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }), mutated), (json) => {
        try {
          fromRaw(json);
        } catch (error) {
          expect(error).toBeInstanceOf(BadInteraction);
        }
      }),
      { numRuns: 500 },
    );
  });
});
