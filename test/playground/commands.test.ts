/** Commands typed in the playground reach the bot and its answers come back. */
import { describe, expect, it } from 'vitest';
import { PLAYGROUND_CAPABILITIES } from '../../adapters/playground/index.js';
import { command, eachOnAFreshPlayground, history, pg, postJson, type View } from './running-playground.js';

eachOnAFreshPlayground();

describe('commands', () => {
  it('passes the text to the core with the caller and channel, /reel prefix optional', async () => {
    await command('/reel whoami');
    await postJson('/playground/command', {
      user: 'bob',
      channel: 'launches',
      text: 'whoami',
      timeZone: 'Europe/Paris',
    });
    expect(pg.bot.calls.map((c) => c.input)).toEqual(['whoami', 'whoami']);
    expect(pg.bot.calls[0]?.req).toEqual({
      platform: 'playground',
      capabilities: PLAYGROUND_CAPABILITIES,
      user: 'playground:local:alice',
      userName: 'Alice',
      conversation: 'playground:local:general',
      memberOf: [],
      // The demo's first member is its workspace admin (sets the team policy).
      isWorkspaceAdmin: true,
      conversations: { isMember: expect.any(Function) },
      channelAccess: { botCanPost: expect.any(Function) },
    });
    // Every demo member is in every demo channel, and in nothing else; so is the bot.
    const { conversations, channelAccess } = pg.bot.calls[0]?.req ?? {};
    expect(await conversations?.isMember('playground:local:launches')).toBe(true);
    expect(await conversations?.isMember('playground:local:elsewhere')).toBe(false);
    expect(await channelAccess?.botCanPost('playground:local:launches')).toBe(true);
    expect(await channelAccess?.botCanPost('playground:local:elsewhere')).toBe(false);
    expect(pg.bot.calls[1]?.req.isWorkspaceAdmin).toBeUndefined();
    expect(pg.bot.calls[1]?.req).toMatchObject({
      user: 'playground:local:bob',
      conversation: 'playground:local:launches',
      platformTimeZone: 'Europe/Paris',
      // Bob is in the demo group `reviewers` (`settings approvers @&reviewers`).
      memberOf: ['playground-group:reviewers'],
    });
  });

  it('hands a typed #channel over as a channel of the workspace (settings alerts #launches)', async () => {
    await command('settings alerts #launches');
    expect(pg.bot.calls[0]?.req.channels).toEqual([{ text: '#launches', ref: 'playground:local:launches' }]);
    // A mention or a hashtag inside a word is no channel.
    await command('create A script about C# and @ann#tag');
    expect(pg.bot.calls[1]?.req.channels).toBeUndefined();
  });

  it('shows an ephemeral reply (and the typed command) only to the caller', async () => {
    const { status, body } = await command('help');
    expect(status).toBe(200);
    expect(body.kind).toBe('message');
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0].html).toContain('<code>/reel help</code>');
    expect(body.messages[1].html).toContain('reelbot help');
    expect(body.messages[1].html).toContain('Only visible to you');
    expect((await history('alice')).map((m) => m.id)).toEqual(body.messages.map((m: View) => m.id));
    expect(await history('bob')).toEqual([]);
  });

  it('posts a channel reply for everyone', async () => {
    const { body } = await command('announce Ship it <b>now</b>');
    const card = body.messages[1] as View;
    expect(card.html).toContain('Ship it &lt;b&gt;now&lt;/b&gt;');
    expect(card.html).not.toContain('Only visible to you');
    expect((await history('bob')).map((m) => m.id)).toEqual([card.id]);
    expect((await history('carol')).map((m) => m.id)).toEqual([card.id]);
  });

  it('keeps channels apart', async () => {
    await command('announce in launches', 'alice', 'launches');
    expect(await history('alice', 'general')).toEqual([]);
    expect(await history('bob', 'launches')).toHaveLength(1);
  });

  it('answers `none` with nothing but the echo', async () => {
    const { body } = await command('silent');
    expect(body).toMatchObject({ ok: true, kind: 'none' });
    expect(body.messages).toHaveLength(1);
  });

  it('returns a 500 with JSON when the core throws, and keeps serving', async () => {
    pg.bot.failNext = true;
    const failed = await command('help');
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ ok: false, error: 'The playground server failed; see its log.' });
    expect((await command('help')).status).toBe(200);
  });
});
