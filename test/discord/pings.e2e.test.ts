/**
 * The right person is pinged on Discord (DESIGN §4), through the real discord.js client, the real core and the
 * simulator on both profiles: the ready and post-failed replies in the card's thread carry `<@id>` above the
 * card with `allowed_mentions` naming only that member (never everyone, never roles), none once they turned
 * mentions off, a direct message with `notify dm:True`; Retry now on a failed scheduled post publishes it once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import type { FakeMessage } from './fake-discord.js';
import { textDisplaysOf, titleOf } from './read-message.js';
import { discordWorld, MEMBERS, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(['spec', 'real'] as const)('pings on Discord (%s profile)', (profile) => {
  /** A reply in the thread of the video card titled `video`. */
  const reply = (video: string, title: string): FakeMessage | undefined => {
    const card = w.fake.channelMessages().find((m) => titleOf(m) === video);
    return card && w.fake.channelMessages(card.id).find((m) => titleOf(m) === title);
  };

  async function create(name: string, as: 'alice' | 'bob' = 'bob'): Promise<FakeMessage> {
    const confirm = await w.slash('create', { script: `A short script about ${name} for a test.`, name }, as);
    await w.click(w.original(confirm), 'Create (20 credits)', as);
    await w.h.until(() => reply(name, `✅ ${name} is ready`) !== undefined, { maxMs: 20 * MINUTE });
    return reply(name, `✅ ${name} is ready`) as FakeMessage;
  }

  it('mentions the requester above the ready reply, allowed_mentions naming only them', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const ready = await create('Ready one');
    expect(textDisplaysOf(ready)[0]).toBe(`<@${MEMBERS.bob.id}>`);
    expect(ready.history[0]?.allowed_mentions).toEqual({ parse: [], users: [MEMBERS.bob.id] });
  });

  it('mentions nobody with mentions off; with dm:True the ping is a direct message', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const off = await w.slash('account notify', { mentions: 'off' }, 'bob');
    expect(textOfMessage(w.original(off))).toContain('Mentions are off');
    const quiet = await create('Quiet one');
    expect(textDisplaysOf(quiet)[0]).not.toContain('<@');
    expect(quiet.history[0]?.allowed_mentions).toEqual({ parse: [] });

    await w.slash('account notify', { dm: true }, 'bob');
    const direct = await create('Direct one');
    expect(direct.history[0]?.allowed_mentions).toEqual({ parse: [] });
    const opened = w.fake.requests.filter((r) => r.method === 'POST' && r.path === '/users/@me/channels');
    expect(opened.map((r) => r.body)).toEqual([{ recipient_id: MEMBERS.bob.id }]);
    const dm = w.fake.requests.filter(
      (r) =>
        r.method === 'POST' &&
        /^\/channels\/\d+\/messages$/.test(r.path) &&
        JSON.stringify(r.body).includes('Direct one is ready') &&
        r.path !== `/channels/${direct.channel_id}/messages`,
    );
    expect(dm).toHaveLength(1);
  });

  it('mentions the scheduler when a scheduled post fails; Retry now posts it once', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const api = w.h.deps.apiFor(DEMO_KEY);
    const voice = (await api.voices.list())[0] as { id: string };
    const created = await api.videos.create(
      { script: 'A short script about a launch, long enough.', voiceId: voice.id, name: 'Launch' },
      { idempotencyKey: 'discord-pings-launch' },
    );
    await w.h.until(async () => (await api.videos.get(created.id)).status === 'completed', {
      stepMs: 15_000,
      maxMs: 20 * MINUTE,
    });
    await api.videos.update(created.id, { posts: { x: { text: 'Launch' } } });
    await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
    await w.slash('status', { video: created.id }, 'alice');
    const scheduled = await w.slash(
      'schedule',
      { video: 'Launch', platforms: 'x', when: 'in 2 hours' },
      'alice',
    );
    expect(textOfMessage(w.answer(scheduled))).toContain('Scheduled');
    w.h.sim.sim.setKnobs({ postFailureRate: 1 });
    await w.h.until(() => reply('Launch', 'Failed on X') !== undefined, {
      stepMs: 10 * MINUTE,
      maxMs: 6 * HOUR,
    });
    const failed = reply('Launch', 'Failed on X') as FakeMessage;
    expect(textDisplaysOf(failed)[0]).toBe(`<@${MEMBERS.alice.id}>`);
    expect(failed.history[0]?.allowed_mentions).toEqual({ parse: [], users: [MEMBERS.alice.id] });

    w.h.sim.sim.setKnobs({ postFailureRate: 0 });
    const posts = () => w.h.sim.sim.received({ method: 'POST', path: '/posts' }).length;
    const before = posts();
    await w.click(failed, 'Retry now', 'alice');
    await w.h.flush();
    expect(posts()).toBe(before + 1);
    expect(w.h.sim.sim.received({ method: 'POST', path: '/posts' }).at(-1)?.body).toMatchObject({
      videoId: created.id,
      platform: 'x',
    });
  });
});
