import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LINK_FORM_ID } from '../../../src/core/commands/account/link.js';
import { say } from '../../../src/core/text/messages.js';
import { commandsAsTyped } from '../../support/commands-as-typed.js';
import { cardOf, createWorld, DEMO_KEY, textOf, type World } from './world.js';

const NARROW_KEY = 'fl_live_narrow_scopes_key_00000000000000';
const OTHER_KEY = 'fl_live_other_team_key_1111111111111111';

describe('link, unlink, whoami', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld({
      teams: [
        {
          name: 'Narrow Team',
          plan: 'starter',
          credits: 40,
          keys: [{ key: NARROW_KEY, scopes: ['videos:read', 'credits:read'] }],
        },
        { name: 'Other Team', keys: [{ key: OTHER_KEY }] },
      ],
    });
  });
  afterEach(async () => w.close());

  it('opens a private form with one key input and a hint where to find the key', async () => {
    const bob = await w.user('bob', { key: null });
    const response = await w.run('/reel link', bob);
    expect(response.kind).toBe('form');
    if (response.kind !== 'form') return;
    expect(response.form.id).toBe(LINK_FORM_ID);
    expect(response.form.inputs).toHaveLength(1);
    expect(response.form.inputs[0]).toMatchObject({ kind: 'text', id: 'key', required: true });
    expect(response.form.inputs[0]?.hint).toMatch(/developer dashboard/i);
  });

  it('refuses a key typed in the channel without storing or repeating it', async () => {
    const bob = await w.user('bob', { key: null });
    const response = await w.run(`/reel link ${DEMO_KEY}`, bob);
    expect(response).toMatchObject({ kind: 'message', visibility: 'ephemeral' });
    expect(textOf(response)).toContain(commandsAsTyped(say('key-in-channel')));
    expect(JSON.stringify(response)).not.toContain(DEMO_KEY);
    expect(JSON.stringify(response)).not.toContain('0123456789abcdef');
    expect(await w.store.keys.get(bob.user)).toBeUndefined();
    // Quoted or with flags, still refused and never echoed.
    for (const text of [`link "${DEMO_KEY}"`, `link key ${DEMO_KEY} --x`, `link --key ${DEMO_KEY}`]) {
      const r = await w.run(text, bob);
      expect(JSON.stringify(r)).not.toContain('0123456789abcdef');
      expect(await w.store.keys.get(bob.user)).toBeUndefined();
    }
    expect(w.chat.posts).toHaveLength(0);
  });

  it('checks the key with GET /me, stores it, and answers with team, plan, credits and scopes', async () => {
    const bob = await w.user('bob', { key: null });
    const response = await w.submit(LINK_FORM_ID, '', { key: `  ${DEMO_KEY}\n` }, bob);
    const card = cardOf(response);
    expect(response).toMatchObject({ kind: 'message', visibility: 'ephemeral' });
    expect(card.title).toBe('Linked to Demo Team');
    const text = textOf(response);
    expect(text).toContain('Plan: pro');
    expect(text).toContain('Credits: 500');
    expect(text).toContain('Scopes: all 11 scopes');
    expect(text).toContain('`fl_live_harn…`');
    expect(JSON.stringify(response)).not.toContain(DEMO_KEY);
    expect(await w.store.keys.get(bob.user)).toMatchObject({
      apiKey: DEMO_KEY,
      teamName: 'Demo Team',
      keyPrefix: 'fl_live_harn',
    });
  });

  it('answers an unknown key inline in the form and stores nothing', async () => {
    const bob = await w.user('bob', { key: null });
    const response = await w.submit(LINK_FORM_ID, '', { key: 'fl_live_not_a_real_key_999999999999' }, bob);
    expect(response).toEqual({ kind: 'form-errors', errors: { key: say('bad-key') } });
    expect(await w.store.keys.get(bob.user)).toBeUndefined();

    w.sim.sim.revokeKey(OTHER_KEY);
    const revoked = await w.submit(LINK_FORM_ID, '', { key: OTHER_KEY }, bob);
    expect(revoked).toEqual({ kind: 'form-errors', errors: { key: say('bad-key') } });
    expect(await w.store.keys.get(bob.user)).toBeUndefined();
  });

  it('answers an empty or malformed key without calling the service', async () => {
    const bob = await w.user('bob', { key: null });
    expect(await w.submit(LINK_FORM_ID, '', { key: '   ' }, bob)).toEqual({
      kind: 'form-errors',
      errors: { key: say('key-empty') },
    });
    expect(await w.submit(LINK_FORM_ID, '', { key: 'my key is this' }, bob)).toEqual({
      kind: 'form-errors',
      errors: { key: say('key-malformed') },
    });
    expect(await w.store.keys.get(bob.user)).toBeUndefined();
  });

  it('says which commands a key with missing scopes cannot run', async () => {
    const bob = await w.user('bob', { key: null });
    const response = await w.submit(LINK_FORM_ID, '', { key: NARROW_KEY }, bob);
    const card = cardOf(response);
    expect(card.tone).toBe('warning');
    expect(card.text).toMatch(/lacks some scopes/);
    expect(card.text).toContain('`posts:write` — `publish`, `schedule`, `unschedule` will not work');
    expect(textOf(response)).toContain('Scopes: `videos:read`, `credits:read`');
    expect(textOf(response)).toContain('Plan: starter');
  });

  it('replacing a link to another team says so', async () => {
    const bob = await w.user('bob');
    const form = await w.run('link', bob);
    // A warning set apart from the intro: the current link is replaced.
    expect(form.kind === 'form' && form.form.alert).toEqual({
      level: 'warning',
      text: expect.stringMatching(/^This replaces your current link to \*\*Team\*\*/),
    });
    expect(textOf(form)).toContain('This replaces your current link');
    const response = await w.submit(LINK_FORM_ID, '', { key: OTHER_KEY }, bob);
    expect(cardOf(response).title).toBe('Linked to Other Team');
    expect(cardOf(response).text).toContain('You switched from **Team**');
  });

  it('whoami shows the team and the key prefix only, and says the key is the member’s own', async () => {
    const bob = await w.user('bob', { key: null });
    await w.submit(LINK_FORM_ID, '', { key: DEMO_KEY }, bob);
    const response = await w.run('whoami', bob);
    const text = textOf(response);
    expect(cardOf(response).title).toBe('You act as Demo Team');
    expect(text).toContain('Plan: pro');
    expect(text).toContain('Credits: 500');
    expect(text).toContain('Key: `fl_live_harn…`');
    expect(text).toMatch(/Key source: Your own link \(since Mon 23 Nov 2026, 08:00\)/);
    expect(text).toContain('all 11 scopes');
    expect(JSON.stringify(response)).not.toContain(DEMO_KEY);
  });

  it('unlink removes the key; whoami then asks to link', async () => {
    const bob = await w.user('bob', { key: null });
    await w.submit(LINK_FORM_ID, '', { key: DEMO_KEY }, bob);
    const unlinked = await w.run('unlink', bob);
    expect(cardOf(unlinked).title).toBe('Key unlinked');
    expect(textOf(unlinked)).toContain('Demo Team');
    expect(textOf(unlinked)).toContain('revoke it in the dashboard');
    expect(await w.store.keys.get(bob.user)).toBeUndefined();
    expect(textOf(await w.run('whoami', bob))).toContain(commandsAsTyped(say('not-linked')));
    expect(cardOf(await w.run('unlink', bob)).title).toBe('Nothing to unlink');
  });

  it('a revoked key is explained on the next command', async () => {
    const carol = await w.user('carol', { key: OTHER_KEY });
    w.sim.sim.revokeKey(OTHER_KEY);
    const response = await w.run('whoami', carol);
    expect(textOf(response)).toContain('no longer accepts your API key');
    expect(textOf(response)).toContain('/reel link');
  });
});

describe('whoami with the deployment key', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld({ deploymentKey: DEMO_KEY });
  });
  afterEach(async () => w.close());

  it('says the shared key is in use, shows its prefix only', async () => {
    const dave = await w.user('dave', { key: null });
    const response = await w.run('whoami', dave);
    const text = textOf(response);
    expect(text).toContain("This workspace's shared key (`VIDEO_API_KEY`)");
    expect(text).toContain('Key: `fl_live_harn…`');
    expect(JSON.stringify(response)).not.toContain(DEMO_KEY);
    const unlink = await w.run('unlink', dave);
    expect(textOf(unlink)).toContain("You use this workspace's shared key");
  });
});
