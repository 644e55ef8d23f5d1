/** How the bot tells teams apart when GET /me has no `team.id` (the newer reference drops it). */
import { describe, expect, it } from 'vitest';
import { keyId } from '../../src/core/video-api/catalog-cache.js';
import { isServiceTeamId, sameTeam, teamIdentity } from '../../src/core/video-api/team-identity.js';
import { ME } from './fixtures.js';
import { harness, ok } from './harness.js';

const KEY = 'sk_live_identity_key_0123456789';

describe('teamIdentity', () => {
  it('is team.id when the service gives one', () => {
    expect(teamIdentity({ team: { id: 'team_1', name: 'Acme', credits: 1 } }, KEY)).toBe('team_1');
  });

  it('is a fingerprint of the key otherwise: stable, short, never the key', () => {
    const identity = teamIdentity({ team: { name: 'Acme', credits: 1 } }, KEY);
    expect(identity).toBe(`key:${keyId(KEY)}`);
    expect(identity).toMatch(/^key:[0-9a-f]{16}$/);
    expect(identity).not.toContain(KEY);
    expect(teamIdentity({ team: { name: 'Other', credits: 9 } }, KEY)).toBe(identity);
    expect(isServiceTeamId(identity)).toBe(false);
  });

  it('GET /me without team.id, keyPrefix and legacy reads, and yields the fingerprint', async () => {
    const h = harness();
    const { id, ...team } = ME.team;
    const { keyPrefix, legacy, ...auth } = ME.auth;
    h.reply('GET', '/me', 200, ok({ ...ME, team, auth }));
    const me = await h.clock.run(h.client.me.get());
    expect(me).toEqual({ team, plan: ME.plan, auth });
    expect(teamIdentity(me, KEY)).toBe(`key:${keyId(KEY)}`);
  });
});

describe('sameTeam', () => {
  const linked = (teamId: string, teamName = 'Acme') => ({ teamId, teamName });

  it('compares service ids when both sides have one', () => {
    expect(sameTeam(linked('team_1'), linked('team_1', 'Renamed'))).toBe(true);
    expect(sameTeam(linked('team_1'), linked('team_2'))).toBe(false);
  });

  it('falls back to the name when either side is a key fingerprint (two keys of one team)', () => {
    expect(sameTeam(linked('key:aaaa'), linked('key:bbbb'))).toBe(true);
    expect(sameTeam(linked('team_1'), linked('key:bbbb'))).toBe(true);
    expect(sameTeam(linked('key:aaaa'), linked('key:bbbb', 'Other team'))).toBe(false);
  });
});
