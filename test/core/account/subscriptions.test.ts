import { afterEach, describe, expect, it } from 'vitest';
import { feedTarget } from '../../../src/core/live/feed-watcher.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { md, mention } from '../../../src/core/text/text.js';
import type { VideoApi } from '../../../src/core/video-api/video-api.js';
import { cardOf, cardText, createWorld, DEMO_KEY, textOf, type World } from './world.js';

const MINUTE = 60_000;
let seq = 0;

async function newVideo(api: VideoApi, name: string): Promise<string> {
  const v = await api.videos.create(
    { script: `A short script called ${name}, long enough.`, voiceId: 'voice_aria_en', name },
    { idempotencyKey: `video-${name}-${++seq}` },
  );
  return v.id;
}

/** Moves time in poller-sized steps so every due check runs. */
async function pass(w: World, ms: number, step = MINUTE): Promise<void> {
  for (let spent = 0; spent < ms; spent += step) await w.advance(step);
}

const titles = (w: World) => w.chat.channelMessages.map((m) => m.card.title);

describe('subscribe calendar', () => {
  let w: World;
  afterEach(async () => w.close());

  it('posts once per post that goes out or fails, never for what happened before', async () => {
    w = await createWorld();
    const api = w.api();
    const early = await newVideo(api, 'Early bird');
    const posted = await newVideo(api, 'Sea shanties');
    const failing = await newVideo(api, 'Desert winds');
    for (const id of [early, posted, failing]) {
      await api.videos.update(id, { posts: { youtube: { title: 'A title' }, x: { text: 'A post' } } });
    }
    const at = (ms: number) => new Date(w.clock.now() + ms).toISOString();
    await api.posts.schedule(
      { videoId: early, platforms: ['youtube'], scheduledTime: at(10 * MINUTE) },
      { idempotencyKey: 's1' },
    );
    await api.posts.schedule(
      { videoId: posted, platforms: ['youtube'], scheduledTime: at(60 * MINUTE) },
      { idempotencyKey: 's2' },
    );
    await api.posts.schedule(
      { videoId: failing, platforms: ['x'], scheduledTime: at(120 * MINUTE) },
      { idempotencyKey: 's3' },
    );
    await pass(w, 20 * MINUTE, 5 * MINUTE);
    expect(titles(w)).toEqual([]);

    const response = await w.run('subscribe calendar');
    expect(response).toMatchObject({ kind: 'message', visibility: 'channel' });
    expect(cardOf(response).title).toBe('Subscribed: calendar');
    expect(textOf(response)).toContain('every scheduled post that goes out or fails will show up here');
    const watch = await w.store.watches.findActive(
      'feed',
      feedTarget({ kind: 'calendar', conversation: w.conversation }),
    );
    expect(watch?.owner).toBe('playground:W1:alice');

    await pass(w, 80 * MINUTE);
    w.sim.sim.setKnobs({ postFailureRate: 1 });
    await pass(w, 60 * MINUTE);
    await pass(w, 30 * MINUTE);

    expect(titles(w)).toEqual(['Posted to YouTube', 'Post to X failed']);
    const [ok, failed] = w.chat.channelMessages;
    expect(ok?.card.text).toMatch(
      /^\*\*Sea shanties\*\* went out on YouTube \(scheduled for Mon 23 Nov 2026, 09:00 \(UTC\)\)\.$/,
    );
    expect(failed?.card.text).toContain('**Desert winds** could not be posted to X');
    expect(failed?.card.text).toContain(`\`/reel schedule ${failing} x <when>\``);
    expect(ok?.conversation).toBe(w.conversation);
  });

  it('uses the channel time zone in its messages, and stops on unsubscribe', async () => {
    w = await createWorld();
    await w.run('settings timezone Europe/Paris');
    await w.run('subscribe calendar');
    const api = w.api();
    const id = await newVideo(api, 'Paris');
    await api.videos.update(id, { posts: { youtube: { title: 'T' } } });
    await api.posts.schedule(
      {
        videoId: id,
        platforms: ['youtube'],
        scheduledTime: new Date(w.clock.now() + 30 * MINUTE).toISOString(),
      },
      { idempotencyKey: 'paris' },
    );
    await pass(w, 40 * MINUTE);
    expect(w.chat.channelMessages.at(-1)?.card.text).toContain(
      '(scheduled for Mon 23 Nov 2026, 09:30 (Europe/Paris))',
    );

    const before = w.chat.posts.length;
    const off = await w.run('unsubscribe calendar');
    expect(off).toMatchObject({ kind: 'message', visibility: 'channel' });
    expect(textOf(off)).toContain('This channel no longer follows the posting calendar.');
    const target = feedTarget({ kind: 'calendar', conversation: w.conversation });
    expect(await w.store.watches.findActive('feed', target)).toBeUndefined();
    expect(await w.store.subscriptions.list(w.conversation)).toEqual([]);

    const other = await newVideo(api, 'Later');
    await api.videos.update(other, { posts: { youtube: { title: 'T' } } });
    await api.posts.schedule(
      {
        videoId: other,
        platforms: ['youtube'],
        scheduledTime: new Date(w.clock.now() + 10 * MINUTE).toISOString(),
      },
      { idempotencyKey: 'later' },
    );
    await pass(w, 30 * MINUTE);
    expect(w.chat.posts.length).toBe(before);

    const again = await w.run('unsubscribe calendar');
    expect(textOf(again)).toContain("This channel doesn't follow the posting calendar.");
    // Typed right, nothing to stop: the answer points at `/reel subscribe`, not at the command's usage.
    expect(textOf(again)).not.toContain('Usage:');
  });

  it('stops with a message in the channel when the subscriber’s key is revoked', async () => {
    const key = 'fl_live_revocable_key_33333333333333333';
    w = await createWorld({ teams: [{ name: 'Revocable', keys: [{ key }] }] });
    const bob = await w.user('bob', { key });
    await w.run('subscribe calendar', bob);
    w.sim.sim.revokeKey(key);
    await pass(w, 12 * MINUTE);
    expect(titles(w)).toEqual(['Subscription stopped']);
    expect(w.chat.channelMessages[0]?.card.text).toContain('no longer works (revoked or unlinked)');
    expect(await w.store.subscriptions.list(w.conversation)).toEqual([]);
    await pass(w, 30 * MINUTE, 10 * MINUTE);
    expect(titles(w)).toEqual(['Subscription stopped']);
  });
});

// The feed watcher reads the video list: on both simulator profiles (the real one's shapes differ, DESIGN §7).
describe.each(['spec', 'real'] as const)('subscribe videos (%s profile)', (profile) => {
  let w: World;
  afterEach(async () => w.close());

  it('posts a short card per new video, not for older ones, not twice', async () => {
    w = await createWorld({ simulator: { profile } });
    const api = w.api();
    await newVideo(api, 'Before the subscription');
    await w.run('subscribe videos');
    const first = await newVideo(api, 'First news');
    const second = await newVideo(api, 'Second news');
    // A video made from this channel already has its status card here.
    const own = await newVideo(api, 'Made here');
    await w.store.cards.put(videoCardKey(own, w.conversation), {
      conversation: w.conversation,
      card: { title: md`Made here` },
    });

    await pass(w, 3 * MINUTE);
    expect(titles(w)).toEqual(['New video: First news', 'New video: Second news']);
    const card = w.chat.channelMessages[0]?.card;
    expect(card && cardText(card)).toContain(`/reel status ${first}`);
    expect(card?.fields?.find((f) => f.label === 'Created')?.value).toBe('Mon 23 Nov 2026, 08:00');
    expect(second).toBeTruthy();
    await pass(w, 10 * MINUTE);
    expect(titles(w)).toHaveLength(2);
  });

  it('summarises a burst of new videos instead of flooding', async () => {
    w = await createWorld({ simulator: { profile } });
    await w.run('subscribe videos');
    const api = w.api();
    for (let i = 1; i <= 8; i++) await newVideo(api, `Burst ${i}`);
    await pass(w, 3 * MINUTE);
    expect(titles(w)).toEqual([
      'New video: Burst 1',
      'New video: Burst 2',
      'New video: Burst 3',
      'New video: Burst 4',
      'New video: Burst 5',
      '3 more new videos',
    ]);
    expect(w.chat.channelMessages.at(-1)?.card.text).toContain('• Burst 8 (`');
  });

  it('lists this channel’s subscriptions and refuses a second identical one', async () => {
    w = await createWorld({ simulator: { profile } });
    await w.run('subscribe videos');
    const twice = await w.run('subscribe videos');
    expect(cardOf(twice).title).toBe('Already subscribed');
    expect(twice).toMatchObject({ visibility: 'ephemeral' });
    await w.run('subscribe calendar');
    const list = await w.run('subscribe');
    expect(cardOf(list).title).toBe('This channel follows 2 feeds');
    expect(cardOf(list).text).toContain(
      `• **videos** — every new video of the team · since Mon 23 Nov 2026, 08:00 · by ${mention('playground:W1:alice')}`,
    );
    expect(cardOf(list).text).toContain('• **calendar** — every scheduled post that goes out or fails');
  });
});

describe('subscribe series', () => {
  let w: World;
  afterEach(async () => w.close());

  it('gives each new episode its own status card; unsubscribe ends it', async () => {
    w = await createWorld();
    const api = w.api();
    const series = await api.series.create(
      { name: 'Ocean facts', source: 'ai_story', niche: 'fun_facts' },
      { idempotencyKey: 'series-1' },
    );
    await pass(w, 2 * MINUTE);
    const response = await w.run('subscribe series ocean');
    expect(cardOf(response).title).toBe('Subscribed: Ocean facts');
    expect(textOf(response)).toContain('each new episode, with its own status card');
    expect(textOf(await w.run('subscribe'))).toContain('series **Ocean facts**');

    const episode = await api.series.generate(series.id, { idempotencyKey: 'ep-2' });
    await pass(w, 6 * MINUTE);
    const card = await w.store.cards.get(videoCardKey(episode.projectId, w.conversation));
    expect(card).toBeDefined();
    expect(w.chat.channelMessages.some((m) => m.card.context?.includes(episode.projectId))).toBe(true);
    // The episode that existed before the subscription has no card here.
    const episodes = await api.series.episodes(series.id);
    const older = episodes.items.find((e) => e.projectId !== episode.projectId);
    expect(
      older && (await w.store.cards.get(videoCardKey(older.projectId ?? '', w.conversation))),
    ).toBeUndefined();

    const off = await w.run('unsubscribe series "Ocean facts"');
    expect(textOf(off)).toContain('This channel no longer follows the series **Ocean facts**.');
    expect((await w.store.watches.active()).filter((x) => x.kind === 'series')).toEqual([]);
  });
});

describe('subscribe: bad input and permissions', () => {
  let w: World;
  afterEach(async () => w.close());

  it('answers with usage and an example, sending nothing', async () => {
    w = await createWorld();
    for (const [text, words] of [
      ['subscribe series', 'Name the series to follow: `/reel subscribe series <name or id>`'],
      ['subscribe videos everything', '`videos` follows the whole team; drop `everything`.'],
      [
        'subscribe podcasts',
        "`podcasts` isn't a valid `what`. Choose one of: calendar, videos, series, digest.",
      ],
      ['unsubscribe', '`unsubscribe` needs `what`.'],
    ] as const) {
      const response = await w.run(text);
      expect(textOf(response)).toContain(words);
      expect(textOf(response)).toMatch(/Usage: `\/reel (un)?subscribe/);
      expect(textOf(response)).toMatch(/Example: `\/reel (un)?subscribe/);
    }
    expect(w.calls).toEqual([]);
    expect(await w.store.subscriptions.list(w.conversation)).toEqual([]);
  });

  it('a key without posts:read is refused at subscribe time, not silently later', async () => {
    const key = 'fl_live_no_posts_read_4444444444444444';
    w = await createWorld({ teams: [{ name: 'Blind', keys: [{ key, scopes: ['videos:read'] }] }] });
    const response = await w.run('subscribe calendar', await w.user('bob', { key }));
    expect(textOf(response)).toContain('Your API key lacks the `posts:read` scope.');
    expect(await w.store.subscriptions.list(w.conversation)).toEqual([]);
    expect(await w.store.watches.active()).toEqual([]);
  });

  it('only the channel admins may subscribe once an admin role is set', async () => {
    w = await createWorld();
    const alice = await w.user('alice');
    const bob = await w.user('bob');
    await w.run('settings role admin @alice', alice);
    const refused = await w.run('subscribe videos', bob);
    expect(textOf(refused)).toContain(
      `Only ${mention('playground:W1:alice')} may change subscriptions in this channel.`,
    );
    expect(cardOf(await w.run('subscribe videos', alice)).title).toBe('Subscribed: videos');
    expect((await w.store.keys.get(bob.user))?.apiKey).toBe(DEMO_KEY);
  });
});
