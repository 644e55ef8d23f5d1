/**
 * A channel that follows the calendar and holds the video's card hears "Posted to X" once: on the card
 * (its schedule watch), not again from the calendar feed. A post the card does not follow (scheduled from
 * elsewhere) is still announced by the feed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../src/core/dispatch/context.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';
import { completedVideo } from './publishing/helpers.js';

const MINUTE = 60_000;

let h: Harness;
let alice: RequestInfo;
beforeEach(async () => {
  h = await createHarness();
  alice = await h.user('alice');
  await h.run('subscribe calendar', alice);
});
afterEach(() => h.close());

/** Every message and thread reply titled "Posted to YouTube" in the channel. */
const postedMessages = () => h.chat.posts.filter((p) => p.card.title === 'Posted to YouTube');

async function withPostDetails(name: string): Promise<string> {
  const id = await completedVideo(h, name, { render: true });
  await h.deps.apiFor(DEMO_KEY).videos.update(id, { posts: { youtube: { title: name } } });
  return id;
}

describe('calendar subscription and the video card', () => {
  it('says "Posted to YouTube" once, on the card, when the card follows the schedule', async () => {
    const id = await withPostDetails('Once');
    await h.run(`schedule ${id} youtube in 30 minutes`, alice);
    await h.until(() => postedMessages().length > 0, { stepMs: MINUTE, maxMs: 3 * 3600_000 });
    // Let both watchers look again well after the post went out.
    for (let i = 0; i < 6; i++) await h.advance(10 * MINUTE);
    const posted = postedMessages();
    expect(posted).toHaveLength(1);
    expect(posted[0]?.threadOf).toBeDefined(); // the reply on the video card
  });

  it('still announces a post the card here does not follow', async () => {
    const id = await withPostDetails('Elsewhere');
    // A card here (a publish now to TikTok), but the YouTube schedule was made outside this channel.
    await h.run(`publish ${id} tiktok`, alice);
    await h.deps.apiFor(DEMO_KEY).posts.schedule(
      {
        videoId: id,
        platforms: ['youtube'],
        scheduledTime: new Date(h.clock.now() + 30 * MINUTE).toISOString(),
      },
      { idempotencyKey: 'elsewhere' },
    );
    await h.until(() => postedMessages().length > 0, { stepMs: MINUTE, maxMs: 3 * 3600_000 });
    for (let i = 0; i < 6; i++) await h.advance(10 * MINUTE);
    const posted = postedMessages();
    expect(posted).toHaveLength(1);
    expect(posted[0]?.card.context).toContain('calendar subscription');
  });
});
