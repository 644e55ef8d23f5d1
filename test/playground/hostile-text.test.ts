/**
 * Names are shown, never obeyed, in the playground: the real core behind the playground's HTTP routes, a
 * video named with HTML, mention syntax, a markdown link and bold goes through create, an approval and a
 * rename. The HTML the page serves shows the name as typed (no tag, link, bold or mention made of it); the
 * approvers the core names render as mentions, and the approval card shows who it pings.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HttpServer } from '../../src/http/server.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';
import { servePlayground } from '../support/playground-server.js';

const HOSTILE = '<img src=x onerror=alert(1)> <!channel> <@U1> @everyone [Approve](https://ev.il) **x** a\\b';
const RENAMED = '<b>bold</b> [Open](https://ev.il/2) _y_ `z` ⟦@playground:W1:bob⟧';

interface View {
  id: string;
  html: string;
}

let h: Harness;
let http: HttpServer;
let url = '';
let close: () => Promise<void>;

beforeEach(async () => {
  h = await createHarness({ platform: 'playground' });
  for (const person of ['alice', 'bob']) await h.user(person, { key: DEMO_KEY });
  const served = await servePlayground(h, {
    channels: ['C1'],
    users: [
      { id: 'alice', name: 'Alice' },
      { id: 'bob', name: 'Bob' },
    ],
  });
  ({ http, url, close } = served);
});
afterEach(async () => {
  await close();
  await http.close();
  await h.close();
});

// biome-ignore lint/suspicious/noExplicitAny: test helper reads loosely typed JSON
async function post(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  await h.flush();
  return json;
}
const run = (text: string, user = 'alice') => post('/playground/command', { user, channel: 'C1', text });
async function history(user = 'alice'): Promise<View[]> {
  const res = await fetch(`${url}/playground/messages?user=${user}&channel=C1`);
  return ((await res.json()) as { messages: View[] }).messages;
}

const unescapeHtml = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
/** What a member reads: tags gone, entities undone. */
const textOf = (html: string): string => unescapeHtml(html.replace(/<br>/g, '\n').replace(/<[^>]+>/g, ''));
const button = (html: string, action: string) => {
  const m = new RegExp(`data-action="${action}" data-value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no ${action} button`);
  return unescapeHtml(m[1] as string);
};

describe('hostile names in the playground', () => {
  it('read as typed; only the mentions the core made render as mentions', async () => {
    await run('settings role admin @alice');
    await run('settings approval spend');
    await run('settings spend-threshold 10');
    await run('settings approvers @bob');
    const confirm = await run(`create --name "${HOSTILE}" Octopuses have three hearts and blue blood.`);
    const confirmHtml = confirm.messages.at(-1).html as string;
    expect(textOf(confirmHtml)).toContain(HOSTILE);
    await post('/playground/action', {
      user: 'alice',
      channel: 'C1',
      messageId: confirm.messages.at(-1).id,
      action: 'video.create.confirm',
      value: button(confirmHtml, 'video.create.confirm'),
    });

    const approval = (await history()).find((v) => /Approval needed/.test(v.html));
    if (!approval) throw new Error('no approval card');
    // Who the card pings, shown above it; the approvers field renders the same mention.
    expect(approval.html).toMatch(
      /data-testid="card-notify"><span class="mention" data-testid="mention">@bob<\/span><\/p>/,
    );
    expect(textOf(approval.html)).toContain(HOSTILE);

    await post('/playground/action', {
      user: 'bob',
      channel: 'C1',
      messageId: approval.id,
      action: 'approval.approve',
      value: button(approval.html, 'approval.approve'),
    });
    const decided = (await history()).find((v) => v.id === approval.id);
    expect(decided?.html).not.toContain('card-notify');

    const live = (await history()).find((v) => /Generating voiceover/.test(v.html));
    if (!live) throw new Error('no status card');
    expect(textOf(/data-testid="card-title">([\s\S]*?)<\/h3>/.exec(live.html)?.[1] ?? '')).toBe(HOSTILE);
    const videoId = /id <code>(\w+)<\/code>/.exec(live.html)?.[1];
    await run(`rename ${videoId} "${RENAMED}"`);
    const renamed = (await history()).find((v) => v.id === live.id);
    expect(textOf(/data-testid="card-title">([\s\S]*?)<\/h3>/.exec(renamed?.html ?? '')?.[1] ?? '')).toBe(
      RENAMED,
    );

    const all = (await history()).map((v) => v.html).join('\n');
    expect(all).not.toMatch(/<img src=x|<b>bold|onerror=alert\(1\)>/);
    expect(all).not.toContain('href="https://ev.il');
    expect(all).not.toContain('<strong>x</strong>');
    expect(all).not.toContain('<em>y</em>');
    // Mentions: @alice (admin, requester) and @bob (approver) made by the core; never the forged token in the name.
    const mentions = [...all.matchAll(/<span class="mention" data-testid="mention">([^<]*)<\/span>/g)].map(
      (m) => m[1],
    );
    expect(new Set(mentions)).toEqual(new Set(['@alice', '@bob']));
    expect(textOf(all)).toContain('⟦@playground:W1:bob⟧');
  });
});
