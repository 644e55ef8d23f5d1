/**
 * Filtered subscriptions (issue 32, DESIGN §3 `subscribe`), end to end on the core over the simulator's HTTP,
 * both profiles: a message reaches a channel only when every filter of its subscription matches; the filters
 * are listed in words and replaced by subscribing again; the new-video notice carries "Show here".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { mention } from '../../../src/core/text/text.js';
import type { Platform, VideoApi } from '../../../src/core/video-api/video-api.js';
import { SIMULATOR_PROFILES } from '../../../src/simulator/options.js';
import { cardOf, cardText, createWorld, textOf, type World } from './world.js';

const MINUTE = 60_000;
const FILTERED = 'playground:W1:C1';
const EVERYTHING = 'playground:W1:C2';
let seq = 0;

async function scheduled(
  w: World,
  input: { name: string; platform: Platform; inMs: number },
): Promise<string> {
  const api: VideoApi = w.api();
  const v = await api.videos.create(
    {
      script: `A short script called ${input.name}, long enough.`,
      voiceId: 'voice_aria_en',
      name: input.name,
    },
    { idempotencyKey: `filters-${input.name}-${++seq}` },
  );
  await api.videos.update(v.id, { posts: { youtube: { title: input.name }, tiktok: { title: input.name } } });
  await api.posts.schedule(
    {
      videoId: v.id,
      platforms: [input.platform],
      scheduledTime: new Date(w.clock.now() + input.inMs).toISOString(),
    },
    { idempotencyKey: `filters-schedule-${v.id}` },
  );
  return v.id;
}

async function pass(w: World, ms: number): Promise<void> {
  for (let spent = 0; spent < ms; spent += MINUTE) await w.advance(MINUTE);
}

const titlesIn = (w: World, conversation: string) =>
  w.chat.channelMessages.filter((m) => m.conversation === conversation).map((m) => m.card.title);

describe.each(SIMULATOR_PROFILES)('filtered subscriptions (%s profile)', (profile) => {
  let w: World;
  afterEach(async () => w.close());

  it('a failed TikTok post reaches a --platform tiktok --status failed channel, and nothing else does', async () => {
    w = await createWorld({ simulator: { profile } });
    const alice = await w.user('alice');
    const subscribed = await w.run('subscribe calendar --platform tiktok --status failed', {
      ...alice,
      conversation: FILTERED,
    });
    expect(cardOf(subscribed).title).toBe('Subscribed: calendar');
    expect(textOf(subscribed)).toContain('(only failed posts · only TikTok)');
    await w.run('subscribe calendar', { ...alice, conversation: EVERYTHING });

    w.sim.sim.setKnobs({ postFailureRate: 1 });
    await scheduled(w, { name: 'TikTok flop', platform: 'tiktok', inMs: 10 * MINUTE });
    await scheduled(w, { name: 'YouTube flop', platform: 'youtube', inMs: 10 * MINUTE });
    await pass(w, 30 * MINUTE);
    w.sim.sim.setKnobs({ postFailureRate: 0 });
    await scheduled(w, { name: 'TikTok hit', platform: 'tiktok', inMs: 10 * MINUTE });
    await pass(w, 30 * MINUTE);

    expect(titlesIn(w, EVERYTHING).sort()).toEqual([
      'Post to TikTok failed',
      'Post to YouTube failed',
      'Posted to TikTok',
    ]);
    expect(titlesIn(w, FILTERED)).toEqual(['Post to TikTok failed']);
    const failed = w.chat.channelMessages.find((m) => m.conversation === FILTERED);
    expect(failed?.card.text).toContain('**TikTok flop** could not be posted to TikTok');

    const list = await w.run('subscribe', { ...alice, conversation: FILTERED });
    expect(cardOf(list).text).toContain(
      '• **calendar** — every scheduled post that goes out or fails · only failed posts · only TikTok · since',
    );
  });

  it('re-subscribing with other filters replaces them and says so; the same ones change nothing', async () => {
    w = await createWorld({ simulator: { profile } });
    await w.run('subscribe calendar --status failed');
    const same = await w.run('subscribe calendar --status failed');
    expect(cardOf(same).title).toBe('Already subscribed');

    const replaced = await w.run('subscribe calendar --platform youtube');
    expect(cardOf(replaced).title).toBe('Filters replaced: calendar');
    expect(textOf(replaced)).toContain(
      'This channel already followed the posting calendar; it now keeps only YouTube (instead of only failed posts).',
    );
    expect((await w.store.subscriptions.list(w.conversation)).map((s) => s.filters)).toEqual([
      { platform: 'youtube' },
    ]);
    // The dashboard lists it with its filters too.
    const home = await w.run('home');
    const cards = home.kind === 'message' ? [home.card, ...(home.more ?? [])] : [];
    const subs = cards.find((c) => c.title === 'Channel subscriptions');
    expect(subs && cardText(subs)).toContain(
      'every scheduled post that goes out or fails · only YouTube · by',
    );

    // A subscription whose watch stopped is taken up again with the filters typed then.
    const watch = (await w.store.watches.active()).find((x) => x.kind === 'feed');
    await w.store.watches.update(watch?.id ?? '', { status: 'done' });
    await w.run('subscribe calendar --status posted');
    expect((await w.store.subscriptions.list(w.conversation)).map((s) => s.filters)).toEqual([
      { status: 'posted' },
    ]);

    const cleared = await w.run('subscribe calendar');
    expect(textOf(cleared)).toContain('it now keeps everything (instead of only posts that went out)');
    expect((await w.store.subscriptions.list(w.conversation))[0]).not.toHaveProperty('filters');
  });

  it('--by @member delivers only the videos that member made, each notice with Show here', async () => {
    w = await createWorld({ simulator: { profile } });
    const alice = await w.user('alice');
    const bob = await w.user('bob');
    const sub = await w.run('subscribe videos --by @bob', { ...alice, conversation: FILTERED });
    expect(textOf(sub)).toContain(`(only videos by ${mention(bob.user)})`);

    // Both make a video from another channel (so this one has no live card of them yet).
    const made = async (who: typeof alice, name: string): Promise<string> => {
      const elsewhere = { ...who, conversation: EVERYTHING };
      const confirm = cardOf(
        await w.run(`create --name "${name}" A short script about ${name} for a test.`, elsewhere),
      );
      const button = confirm.controls?.find(
        (c) => c.kind === 'button' && c.action === 'video.create.confirm',
      );
      const pressed = cardOf(
        await w.click('video.create.confirm', (button as { value: string }).value, elsewhere),
      );
      return /id `([^`]+)`/.exec(pressed.context ?? '')?.[1] ?? '';
    };
    await made(alice, 'Alice made this');
    const bobs = await made(bob, 'Bob made this');
    // A video made outside the bot has no maker the bot knows: a --by filter never matches it.
    await w.api().videos.create(
      {
        script: 'A short script made in the dashboard, long enough.',
        voiceId: 'voice_aria_en',
        name: 'Dashboard',
      },
      { idempotencyKey: 'filters-dashboard' },
    );
    await pass(w, 5 * MINUTE);

    expect(titlesIn(w, FILTERED)).toEqual(['New video: Bob made this']);
    const notice = w.chat.channelMessages.find((m) => m.conversation === FILTERED)?.card;
    expect(notice?.controls).toEqual([
      { kind: 'button', action: 'video.show-here', value: bobs, label: 'Show here' },
    ]);

    await w.click('video.show-here', bobs, { ...alice, conversation: FILTERED });
    expect(await w.store.cards.get(videoCardKey(bobs, FILTERED))).toBeDefined();
  });

  it('refuses a filter its feed cannot use, and a --by that is no member, storing nothing', async () => {
    w = await createWorld({ simulator: { profile } });
    for (const [text, words] of [
      [
        'subscribe videos --status failed',
        '`--status` takes a value only with `/reel subscribe calendar` or `/reel subscribe series`, not `failed`.',
      ],
      ['subscribe videos --by everyone', '`--by` takes one member (type @ and pick them), not `everyone`.'],
    ] as const) {
      expect(textOf(await w.run(text))).toContain(words);
    }
    expect(w.calls).toEqual([]);
    expect(await w.store.subscriptions.list(w.conversation)).toEqual([]);
  });
});
