/**
 * The right person is pinged in the playground (DESIGN §4), through its HTTP routes, the real core, poller and
 * outbox and the simulator on both profiles: the ready reply shows its own mention markup of the requester above
 * the card, none once they turned mentions off, and with `notify --dm` the ping is a message only they see.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';
import { servePlayground } from '../support/playground-server.js';

const MINUTE = 60_000;

interface View {
  id: string;
  threadOf?: string;
  html: string;
}

describe.each(['spec', 'real'] as const)('pings in the playground (%s profile)', (profile) => {
  let h: Harness;
  let url = '';
  let close: () => Promise<void>;
  beforeEach(async () => {
    h = await createHarness({ platform: 'playground', simulator: { profile } });
    for (const person of ['alice', 'bob']) await h.user(person, { key: DEMO_KEY });
    const served = await servePlayground(h, {
      channels: ['C1'],
      users: [
        { id: 'alice', name: 'Alice', groups: [] },
        { id: 'bob', name: 'Bob', groups: [] },
      ],
    });
    url = served.url;
    close = async () => {
      await served.close();
      await h.close();
    };
  });
  afterEach(() => close());

  async function post(path: string, body: Record<string, unknown>): Promise<View[]> {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C1', ...body }),
    });
    const json = (await res.json()) as { ok: boolean; messages?: View[]; error?: string };
    if (!json.ok) throw new Error(`${path}: ${json.error}`);
    await h.flush();
    return json.messages ?? [];
  }
  const history = async (user: string): Promise<View[]> =>
    (
      (await (await fetch(`${url}/playground/messages?user=${user}&channel=C1`)).json()) as {
        messages: View[];
      }
    ).messages;
  const readyFor = async (user: string, name: string): Promise<View | undefined> =>
    (await history(user)).find((v) => v.threadOf && v.html.includes(`${name} is ready`));
  const notifyLine = (view: View | undefined): string =>
    /data-testid="card-notify">([\s\S]*?)<\/p>/.exec(view?.html ?? '')?.[1] ?? '';

  async function create(name: string): Promise<void> {
    const answers = await post('/playground/command', {
      user: 'bob',
      text: `/reel create --name "${name}" A short script about ${name} for a test.`,
    });
    const confirm = answers.find((v) => v.html.includes('video.create.confirm'));
    const value = /data-action="video.create.confirm" data-value="([^"]*)"/.exec(confirm?.html ?? '')?.[1];
    if (!confirm || value === undefined) throw new Error(`no Create button: ${JSON.stringify(answers)}`);
    await post('/playground/action', {
      user: 'bob',
      messageId: confirm.id,
      action: 'video.create.confirm',
      value: value.replace(/&amp;/g, '&'),
    });
    await h.until(async () => (await readyFor('bob', name)) !== undefined, {
      stepMs: 10_000,
      maxMs: 20 * MINUTE,
    });
  }

  it('shows its own mention of the requester above the ready reply', async () => {
    await create('Ready one');
    const ready = await readyFor('alice', 'Ready one');
    expect(notifyLine(ready)).toBe('<span class="mention" data-testid="mention">@bob</span>');
  });

  it('mentions nobody with mentions off; with --dm only the member sees the ping', async () => {
    await post('/playground/command', { user: 'bob', text: '/reel notify mentions off' });
    await create('Quiet one');
    expect(notifyLine(await readyFor('alice', 'Quiet one'))).toBe('');

    await post('/playground/command', { user: 'bob', text: '/reel notify --dm' });
    await create('Direct one');
    expect(notifyLine(await readyFor('alice', 'Direct one'))).toBe('');
    const privately = (await history('bob')).filter(
      (v) => v.html.includes('Direct one is ready') && v.html.includes('Only visible to you'),
    );
    expect(privately).toHaveLength(1);
    expect((await history('alice')).filter((v) => v.html.includes('Only visible to you'))).toEqual([]);
  });
});
