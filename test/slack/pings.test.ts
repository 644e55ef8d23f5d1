/**
 * The right person is pinged on Slack (DESIGN §4), through the real Bolt app, the real core and the simulator
 * on both profiles: the ready and post-failed replies in the card's thread start with a real `<@U…>` in the
 * message text (what makes Slack notify), none once the member turned mentions off, a direct message with
 * `notify --dm`; Retry now on a failed scheduled post publishes it once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import type { FakeMessage } from './fake-slack.js';
import { ALICE, blocksText, CHANNEL, type SlackWorld, slackWorld } from './world.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let w: SlackWorld;
afterEach(() => w.close());

describe.each(['spec', 'real'] as const)('pings on Slack (%s profile)', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  const threadReplies = (): FakeMessage[] => w.fake.messages.filter((m) => m.thread_ts !== undefined);
  const replyTitled = (title: string): FakeMessage | undefined =>
    threadReplies().find((m) => blocksText(m.blocks).includes(title));

  async function create(name: string): Promise<void> {
    const sent = await w.command(`create --name "${name}" A short script about ${name} for a test.`);
    const confirm = await w.reply(sent.responseUrl);
    const blocks = confirm.blocks as unknown[];
    const click = await w.click({ blocks, ts: '1700000001.000100', ephemeral: true }, 'video.create.confirm');
    await w.reply(click.responseUrl);
    await w.h.until(() => replyTitled(`${name} is ready`) !== undefined, {
      stepMs: 10_000,
      maxMs: 20 * MINUTE,
    });
  }

  it('mentions the requester in the ready reply’s text, so Slack notifies them', async () => {
    await create('Ready one');
    const ready = replyTitled('Ready one is ready');
    expect(ready?.channel).toBe(CHANNEL);
    expect(ready?.text.startsWith(`<@${ALICE}> `)).toBe(true);
    expect(w.fake.messages.filter((m) => m.channel === ALICE)).toEqual([]);
  });

  it('mentions nobody with mentions off, and sends a direct message with --dm', async () => {
    await w.reply((await w.command('notify mentions off')).responseUrl);
    await create('Quiet one');
    expect(replyTitled('Quiet one is ready')?.text).not.toContain('<@');

    await w.reply((await w.command('notify --dm')).responseUrl);
    await create('Direct one');
    expect(replyTitled('Direct one is ready')?.text).not.toContain('<@');
    const direct = w.fake.messages.filter((m) => m.channel === ALICE);
    expect(direct.map((m) => blocksText(m.blocks))).toEqual([expect.stringContaining('Direct one is ready')]);
    expect(w.fake.callsOf('chat.postEphemeral')).toEqual([]);
  });

  it('mentions the scheduler when a scheduled post fails; Retry now posts it once', async () => {
    const api = w.h.deps.apiFor(DEMO_KEY);
    const voice = (await api.voices.list())[0] as { id: string };
    const created = await api.videos.create(
      { script: 'A short script about a launch, long enough.', voiceId: voice.id, name: 'Launch' },
      { idempotencyKey: 'slack-pings-launch' },
    );
    await w.h.until(async () => (await api.videos.get(created.id)).status === 'completed', {
      stepMs: 15_000,
      maxMs: 20 * MINUTE,
    });
    await api.videos.update(created.id, { posts: { x: { text: 'Launch' } } });
    await w.reply((await w.command(`status ${created.id}`)).responseUrl);
    const scheduled = await w.reply((await w.command('schedule Launch x in 2 hours')).responseUrl);
    expect(blocksText(scheduled.blocks as unknown[])).toContain('Scheduled');
    w.h.sim.sim.setKnobs({ postFailureRate: 1 });
    await w.h.until(() => replyTitled('Failed on X') !== undefined, { stepMs: 10 * MINUTE, maxMs: 6 * HOUR });
    const failed = replyTitled('Failed on X') as FakeMessage;
    expect(failed.text.startsWith(`<@${ALICE}> `)).toBe(true);

    w.h.sim.sim.setKnobs({ postFailureRate: 0 });
    const posts = () => w.h.sim.sim.received({ method: 'POST', path: '/posts' }).length;
    const before = posts();
    const click = await w.click({ blocks: failed.blocks, ts: failed.ts }, 'post.retry');
    expect(blocksText((await w.reply(click.responseUrl)).blocks as unknown[])).toContain('Published to X');
    await w.h.flush();
    expect(posts()).toBe(before + 1);
    expect(w.h.sim.sim.received({ method: 'POST', path: '/posts' }).at(-1)?.body).toMatchObject({
      videoId: created.id,
      platform: 'x',
    });
    // The same button again sends nothing.
    const again = await w.click({ blocks: failed.blocks, ts: failed.ts }, 'post.retry');
    expect(blocksText((await w.reply(again.responseUrl)).blocks as unknown[])).toContain('Already done');
    expect(posts()).toBe(before + 1);
  });
});
