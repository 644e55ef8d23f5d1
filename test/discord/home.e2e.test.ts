/**
 * `/reel home` on Discord, through the REAL discord.js client against the fake Discord: the
 * dashboard of Slack's App Home — who you act as, credits, recent videos, this week, approvals, what the
 * channels follow — answered privately (every message ephemeral), the first card as the interaction's answer
 * and the rest as private follow-ups; nothing posted in the channel. On both simulator profiles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { completedVideo } from '../core/publishing/helpers.js';
import type { FakeMessage } from './fake-discord.js';
import { textOf, titleOf } from './read-message.js';
import { discordWorld, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

/** The answer and its follow-ups, in order, once all `count` have arrived. */
async function dashboard(r: Awaited<ReturnType<World['slash']>>, count: number): Promise<FakeMessage[]> {
  await w.fake.waitFor(() => r.followups.length >= count - 1, 10_000);
  const follow = r.followups.map((id) => w.fake.messages.get(id));
  return [w.original(r), ...follow].filter((m): m is FakeMessage => m !== undefined);
}

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  it('/reel home answers privately with the dashboard cards', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    await completedVideo(w.h, 'Octopus facts');
    await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');

    const r = await w.slash('home');
    const cards = await dashboard(r, 6);
    const titles = cards.map(titleOf);
    expect(titles[0]).toMatch(/^You act as /);
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Credits: \d+/),
        'Recent videos',
        expect.stringMatching(/Calendar/),
        expect.stringMatching(/pprovals/),
        'Channel subscriptions',
      ]),
    );
    // Every card private to the member; the video they made is on the dashboard.
    expect(cards.every((m) => (m.flags & 64) === 64)).toBe(true);
    expect(cards.map(textOf).join('\n')).toContain('Octopus facts');
    expect(w.fake.channelMessages()).toEqual([]);
    // Each follow-up went through the interaction's own webhook, with the ephemeral flag.
    const posts = w.fake.requests.filter((q) => q.method === 'POST' && q.path.startsWith('/webhooks/'));
    expect(posts.length).toBe(cards.length - 1);
    expect(posts.every((q) => ((q.body as { flags?: number }).flags ?? 0) & 64)).toBeTruthy();
  }, 60_000);

  it('a member with no key gets the link card and the subscriptions, privately', async () => {
    w = await discordWorld({ harness: { simulator: { profile } }, linked: [] });
    await w.h.store.users.setTimeZone(w.address('bob'), 'UTC');
    const r = await w.slash('home', {}, 'bob');
    const cards = await dashboard(r, 2);
    expect(cards.map(titleOf)[1]).toBe('Channel subscriptions');
    expect(textOf(cards[0] as FakeMessage)).toMatch(/link/i);
    expect(cards.every((m) => (m.flags & 64) === 64)).toBe(true);
    expect(w.fake.channelMessages()).toEqual([]);
  }, 60_000);
});
