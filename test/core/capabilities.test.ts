/**
 * What differs between chat platforms reaches the core as data: the request's `ChatCapabilities` (a
 * workspace's and a group's name, DMs outside workspaces) and the group references adapters build. The core
 * asks no platform's name, so a platform's words follow its capabilities, whatever the platform is called.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DM_WORKSPACE, decodeGroupReference, groupReference } from '../../src/core/ports/address.js';
import { parseMention } from '../../src/core/text/text.js';
import { refusedWhere } from '../../src/core/workspace/workspace-gate.js';
import { createWorld, textOf, type World } from './account/world.js';

describe('platform differences as data', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it("names mentionable groups in a mention mistake as the request's capabilities call them", async () => {
    w = await createWorld({ platform: 'playground' });
    const alice = await w.user('alice');
    const capabilities = alice.capabilities;
    if (!capabilities) throw new Error('the harness sets capabilities as the adapter does');
    // The playground's own capabilities name no group noun: its members are told about people only.
    expect(textOf(await w.run('settings approvers bob', alice))).toContain(
      "`bob` isn't a mention I can read. Mention people (type @",
    );
    const withTeams = { ...alice, capabilities: { ...capabilities, groupNoun: 'team' } };
    expect(textOf(await w.run('settings approvers bob', withTeams))).toContain(
      "`bob` isn't a mention I can read. Mention people or a team (type @",
    );
  });

  it("words a refused workspace with the platform's own noun, and its DMs as a direct message", () => {
    const server = { workspaceNoun: 'server', workspacelessDms: true };
    expect(refusedWhere(server, 'G1')).toBe('server');
    expect(refusedWhere(server, DM_WORKSPACE)).toBe('direct message');
    expect(refusedWhere({ workspaceNoun: 'workspace', workspacelessDms: false }, '')).toBe('workspace');
    expect(refusedWhere({ workspaceNoun: 'team', workspacelessDms: false }, DM_WORKSPACE)).toBe('team');
  });

  it('carries a group’s platform and noun inside its reference, in the shape stored rows already hold', () => {
    expect(groupReference('slack', 'group', 'S1')).toBe('slack-group:S1');
    expect(groupReference('discord', 'role', '42')).toBe('discord-role:42');
    expect(decodeGroupReference('playground-group:reviewers')).toEqual({
      platform: 'playground',
      noun: 'group',
      id: 'reviewers',
    });
    expect(parseMention(groupReference('discord', 'role', '42'))).toEqual({
      kind: 'group',
      platform: 'discord',
      noun: 'role',
      id: '42',
    });
    // A user address, or a reference of no platform reelbot speaks, is no group.
    expect(decodeGroupReference('slack:T1:U1')).toBeUndefined();
    expect(decodeGroupReference('teams-group:X')).toBeUndefined();
    expect(() => groupReference('slack', 'user group', 'S1')).toThrow();
  });
});
