/**
 * A form's warning as Slack's alert block, through the real Bolt app against the fake Slack (which takes alert
 * blocks in modals only, with a text and a known level): `series create` opens a modal whose first block warns
 * what each episode costs. A workspace that refuses alert blocks still gets the modal, the warning as a section,
 * and its next modal goes classic at once.
 */
import { webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import type { SlackCall } from './fake-slack.js';
import { BOT_TOKEN, blocksText, CHANNEL, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
afterEach(() => w.close());

type Block = { type: string; level?: string; text?: { type: string; text: string } };

/** The `views.open` calls made for the command's trigger id, once the modal is open (or given up). */
async function opened(world: SlackWorld, triggerId: string): Promise<SlackCall[]> {
  const calls = () => world.fake.callsOf('views.open').filter((c) => c.args.trigger_id === triggerId);
  await world.fake.waitFor(() => calls().some((c) => c.outcome?.ok === true), 'an opened modal');
  return calls();
}

const blocksOf = (call: SlackCall | undefined): Block[] =>
  ((call?.args.view as { blocks?: Block[] } | undefined)?.blocks ?? []) as Block[];

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  it('opens the series form with an alert block warning what each episode costs', async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
    const sent = await w.command('series create');
    const [call, ...more] = await opened(w, sent.triggerId);
    expect(more).toEqual([]);
    const first = blocksOf(call)[0];
    expect(first).toEqual({
      type: 'alert',
      level: 'warning',
      text: { type: 'mrkdwn', text: expect.stringContaining('*20 credits* (Storyboard)') },
    });
    expect(first?.text?.text).toMatch(/^Each episode is charged/);
    // The intro keeps what is not a warning, in a section of its own after the alert.
    expect(blocksOf(call)[1]).toMatchObject({
      type: 'section',
      text: { text: expect.stringContaining('Nothing is created yet') },
    });
  });

  it('opens it again with the warning as a section where alerts are refused, and remembers', async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
    w.fake.refusedBlocks.add('alert');
    const sent = await w.command('series create');
    const [refused, shown, ...more] = await opened(w, sent.triggerId);
    expect(more).toEqual([]);
    expect(refused?.outcome).toEqual({ ok: false, error: 'invalid_arguments' });
    expect(blocksOf(refused)[0]?.type).toBe('alert');
    const types = blocksOf(shown).map((b) => b.type);
    expect(types).not.toContain('alert');
    expect(blocksOf(shown)[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: expect.stringMatching(/^:warning: Each episode is charged \*20 credits\*/),
      },
    });
    expect(w.fake.refusals.map((r) => r.where)).toEqual(['views.open']);

    // The workspace's next modal goes classic at once: no refused attempt first.
    const again = await w.command('series create');
    const [only, ...others] = await opened(w, again.triggerId);
    expect(others).toEqual([]);
    expect(blocksText(blocksOf(only))).toContain('Each episode is charged');
    expect(blocksOf(only).map((b) => b.type)).not.toContain('alert');
    expect(w.fake.refusals).toHaveLength(1);
  });
});

describe('the fake Slack’s alert checks', () => {
  it('refuses an alert in a message, with a level Slack does not know, or without text', async () => {
    w = await slackWorld();
    const client = new webApi.WebClient(BOT_TOKEN, { slackApiUrl: `${w.fake.url}/api/` });
    const alert = { type: 'alert', level: 'warning', text: { type: 'mrkdwn', text: 'Careful' } };
    await expect(
      client.chat.postMessage({ channel: CHANNEL, text: 'x', blocks: [alert] }),
    ).rejects.toMatchObject({
      data: { error: 'invalid_blocks' },
    });
    const modal = (block: object) => ({
      trigger_id: '1.2.3',
      view: {
        type: 'modal' as const,
        title: { type: 'plain_text' as const, text: 'F' },
        blocks: [block as never],
      },
    });
    await expect(client.views.open(modal({ ...alert, level: 'loud' }))).rejects.toMatchObject({
      data: { error: 'invalid_arguments' },
    });
    await expect(client.views.open(modal({ type: 'alert', level: 'info' }))).rejects.toMatchObject({
      data: { error: 'invalid_arguments' },
    });
    await expect(client.views.open(modal(alert))).resolves.toMatchObject({ ok: true });
  });
});
