/**
 * Results come back to the card in the playground (DESIGN §4), through its HTTP routes, the core, the poller
 * and the simulator on both profiles: a day after `/reel publish`, the video's card shows the views the
 * simulator's GET /analytics reports for the post, with a link to it; the `real` profile's older analytics
 * shape reports no post, and the card says nothing about results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { completedVideo } from '../core/publishing/helpers.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';
import { servePlayground } from '../support/playground-server.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface View {
  id: string;
  threadOf?: string;
  html: string;
}

let h: Harness;
let url = '';
let close: () => Promise<void>;
afterEach(() => close());

async function playground(profile: 'spec' | 'real'): Promise<void> {
  h = await createHarness({ platform: 'playground', simulator: { profile } });
  await h.user('alice', { key: DEMO_KEY });
  const served = await servePlayground(h, {
    channels: ['C1'],
    users: [{ id: 'alice', name: 'Alice', groups: [] }],
  });
  url = served.url;
  close = async () => {
    await served.close();
    await h.close();
  };
}

async function command(text: string): Promise<void> {
  const res = await fetch(`${url}/playground/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'C1', user: 'alice', text }),
  });
  expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  await h.flush();
}

/** The video's live card as the channel shows it now. */
async function videoCard(videoId: string): Promise<string> {
  const res = await fetch(`${url}/playground/messages?user=alice&channel=C1`);
  const { messages } = (await res.json()) as { messages: View[] };
  const cards = messages.filter((v) => !v.threadOf && v.html.includes(videoId) && v.html.includes('Posted'));
  expect(cards).toHaveLength(1);
  return cards[0]?.html ?? '';
}

describe.each(['spec', 'real'] as const)('results on the playground card (%s profile)', (profile) => {
  it('shows the views a day after the post, linked to it', async () => {
    await playground(profile);
    const videoId = await completedVideo(h, 'Octopus facts', { render: true });
    await command('/reel publish "Octopus facts" youtube');
    expect(await videoCard(videoId)).not.toContain('Results');

    await h.advance(DAY + MINUTE);
    expect(h.sim.sim.received({ method: 'GET', path: '/analytics' })).toHaveLength(1);
    const html = await videoCard(videoId);
    if (profile === 'real') {
      expect(html).not.toContain('Results');
      return;
    }
    const post = h.sim.sim.publishedPosts()[0];
    const reported = (await h.deps.apiFor(DEMO_KEY).analytics.get()).topPosts.find(
      (p) => p.postUrl === post?.postUrl,
    );
    expect(reported?.views).toBeGreaterThan(0);
    expect(html).toContain(
      `Results after a day:</strong> ${reported?.views.toLocaleString('en-US')} views on YouTube (<a href="${post?.postUrl}"`,
    );
  });
});
