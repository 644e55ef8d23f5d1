import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageLog } from '../../adapters/playground/message-log.js';
import { ChatDeliveryError } from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import { startPlayground, videoCard } from './fake-bot.js';

type Playground = Awaited<ReturnType<typeof startPlayground>>;
let pg: Playground;

beforeEach(async () => {
  pg = await startPlayground();
});
afterEach(async () => {
  await pg.close();
});

interface View {
  id: string;
  channel: string;
  threadOf?: string;
  html: string;
}

async function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${pg.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test helper reads loosely typed JSON
  return { status: res.status, body: (await res.json()) as any };
}

const command = (text: string, user = 'alice', channel = 'general') =>
  postJson('/playground/command', { user, channel, text });

async function history(user: string, channel = 'general'): Promise<View[]> {
  const res = await fetch(`${pg.url}/playground/messages?user=${user}&channel=${channel}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: View[] }).messages;
}

/** Reads an SSE stream until `count` `message` events arrived (or the stream ends). */
async function sse(user: string) {
  const controller = new AbortController();
  const res = await fetch(`${pg.url}/playground/events?user=${user}`, { signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: { event: string; data: unknown }[] = [];
  async function next(predicate: (e: { event: string; data: unknown }) => boolean) {
    for (;;) {
      const found = events.find(predicate);
      if (found) return found;
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
        end = buffer.indexOf('\n\n');
      }
    }
  }
  await next((e) => e.event === 'ready');
  return { events, next, close: () => controller.abort() };
}

describe('page and static files', () => {
  it('serves the page with the composer, channels and the act-as switch', async () => {
    const res = await fetch(`${pg.url}/?user=bob&channel=launches`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('data-testid="composer-input"');
    expect(html).toContain('<body data-user="bob" data-channel="launches">');
    expect(html).toContain('<option value="bob" selected>Bob</option>');
    expect(html).toMatch(/data-channel="general" data-testid="channel-link"/);
    expect(html).toContain('<option value="/reel create ">Create a video</option>');
  });

  it('falls back to the first user and channel for unknown ones', async () => {
    const html = await (await fetch(`${pg.url}/?user=mallory&channel=nope`)).text();
    expect(html).toContain('<body data-user="alice" data-channel="general">');
  });

  it('serves the script and stylesheet with revalidation, and nothing else', async () => {
    const js = await fetch(`${pg.url}/playground/static/playground.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const etag = js.headers.get('etag')!;
    expect((await js.text()).length).toBeGreaterThan(1000);
    const again = await fetch(`${pg.url}/playground/static/playground.js`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const css = await fetch(`${pg.url}/playground/static/playground.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${pg.url}/playground/static/../index.ts`)).status).toBe(404);
    expect((await fetch(`${pg.url}/playground/static/%2e%2e%2findex.ts`)).status).toBe(404);
  });
});

describe('commands', () => {
  it('passes the text to the core with the caller and channel, /reel prefix optional', async () => {
    await command('/reel whoami');
    await postJson('/playground/command', {
      user: 'bob',
      channel: 'launches',
      text: 'whoami',
      timeZone: 'Europe/Paris',
    });
    expect(pg.bot.calls.map((c) => c.input)).toEqual(['whoami', 'whoami']);
    expect(pg.bot.calls[0]?.req).toEqual({
      platform: 'playground',
      user: 'playground:local:alice',
      userName: 'Alice',
      conversation: 'playground:local:general',
      memberOf: [],
      // The demo's first member is its workspace admin (sets the team policy).
      isWorkspaceAdmin: true,
      conversations: { isMember: expect.any(Function) },
    });
    // Every demo member is in every demo channel, and in nothing else.
    const { conversations } = pg.bot.calls[0]?.req ?? {};
    expect(await conversations?.isMember('playground:local:launches')).toBe(true);
    expect(await conversations?.isMember('playground:local:elsewhere')).toBe(false);
    expect(pg.bot.calls[1]?.req.isWorkspaceAdmin).toBeUndefined();
    expect(pg.bot.calls[1]?.req).toMatchObject({
      user: 'playground:local:bob',
      conversation: 'playground:local:launches',
      platformTimeZone: 'Europe/Paris',
      // Bob is in the demo group `reviewers` (`settings approvers @&reviewers`).
      memberOf: ['playground-group:reviewers'],
    });
  });

  it('shows an ephemeral reply (and the typed command) only to the caller', async () => {
    const { status, body } = await command('help');
    expect(status).toBe(200);
    expect(body.kind).toBe('message');
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0].html).toContain('<code>/reel help</code>');
    expect(body.messages[1].html).toContain('reelbot help');
    expect(body.messages[1].html).toContain('Only visible to you');
    expect((await history('alice')).map((m) => m.id)).toEqual(body.messages.map((m: View) => m.id));
    expect(await history('bob')).toEqual([]);
  });

  it('posts a channel reply for everyone', async () => {
    const { body } = await command('announce Ship it <b>now</b>');
    const card = body.messages[1] as View;
    expect(card.html).toContain('Ship it &lt;b&gt;now&lt;/b&gt;');
    expect(card.html).not.toContain('Only visible to you');
    expect((await history('bob')).map((m) => m.id)).toEqual([card.id]);
    expect((await history('carol')).map((m) => m.id)).toEqual([card.id]);
  });

  it('keeps channels apart', async () => {
    await command('announce in launches', 'alice', 'launches');
    expect(await history('alice', 'general')).toEqual([]);
    expect(await history('bob', 'launches')).toHaveLength(1);
  });

  it('answers `none` with nothing but the echo', async () => {
    const { body } = await command('silent');
    expect(body).toMatchObject({ ok: true, kind: 'none' });
    expect(body.messages).toHaveLength(1);
  });

  it('returns a 500 with JSON when the core throws, and keeps serving', async () => {
    pg.bot.failNext = true;
    const failed = await command('help');
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ ok: false, error: 'The playground server failed; see its log.' });
    expect((await command('help')).status).toBe(200);
  });
});

describe('clicks and forms', () => {
  async function liveCard() {
    const address = await pg.adapter.sender.post(pg.adapter.conversation(), videoCard(100), {
      dedupeId: 'outbox:1',
    });
    return { address, id: address.split(':')[3] as string };
  }

  it('runs an action with the message address and replaces the card on `update`', async () => {
    const { address, id } = await liveCard();
    expect(address).toMatch(/^playground:local:general:[a-z0-9]+-\d+$/);
    const { body } = await postJson('/playground/action', {
      user: 'bob',
      channel: 'general',
      messageId: id,
      action: 'video.render',
      value: 'vid_123',
    });
    expect(body.kind).toBe('update');
    expect(body.messages[0].id).toBe(id);
    expect(pg.bot.calls[0]).toMatchObject({
      kind: 'action',
      req: { user: 'playground:local:bob', message: address },
      input: { action: 'video.render', value: 'vid_123' },
    });
    const seen = await history('alice');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.html).toContain('Rendering, started by Bob');
  });

  it('shows several cards as one private panel; a click in it replaces only its own card', async () => {
    const { body } = await command('home');
    const panel = body.messages[1] as View;
    expect(panel.html).toContain('data-testid="card-panel"');
    expect(panel.html.match(/data-card-index=/g)).toHaveLength(3);
    expect(await history('bob')).toEqual([]);
    const clicked = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: panel.id,
      action: 'video.render',
      value: 'vid_123',
      cardIndex: 1,
    });
    expect(clicked.body.kind).toBe('update');
    const [, after] = await history('alice');
    expect(after?.id).toBe(panel.id);
    expect(after?.html.match(/data-card-index=/g)).toHaveLength(3);
    expect(after?.html).toContain('Rendering, started by Alice');
    expect(after?.html).toContain('You are Alice');
    expect(after?.html).toContain('Channel subscriptions');
    // A place outside the panel is refused as a bad request, and changes nothing.
    const bad = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: panel.id,
      action: 'video.render',
      value: 'vid_123',
      cardIndex: 'two',
    });
    expect(bad.status).toBe(400);
  });

  it('passes a select choice as value and choice', async () => {
    const { body } = await command('pick');
    const card = body.messages[1] as View;
    const clicked = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: card.id,
      action: 'platform.pick',
      value: 'tiktok',
      choice: 'tiktok',
    });
    expect(clicked.body.messages[0]).toMatchObject({ id: card.id });
    expect(clicked.body.messages[0].html).toContain('Platform: tiktok');
    expect(pg.bot.calls.at(-1)?.input).toEqual({
      action: 'platform.pick',
      value: 'tiktok',
      choice: 'tiktok',
    });
  });

  it("never replaces another user's private message: the update goes to the clicker alone", async () => {
    const { body } = await command('pick', 'alice');
    const aliceCard = body.messages[1] as View;
    const clicked = await postJson('/playground/action', {
      user: 'bob',
      channel: 'general',
      messageId: aliceCard.id,
      action: 'platform.pick',
      value: 'youtube',
      choice: 'youtube',
    });
    expect(clicked.body.messages[0].id).not.toBe(aliceCard.id);
    expect((await history('alice')).find((m) => m.id === aliceCard.id)?.html).toContain('Pick a platform');
    expect((await history('bob')).map((m) => m.html).join('')).toContain('Platform: youtube');
  });

  it('opens a form, shows inline errors, then posts the result', async () => {
    const opened = await command('create');
    expect(opened.body.kind).toBe('form');
    expect(opened.body.form.id).toBe('create');
    expect(opened.body.form.html).toContain('data-form-id="create" data-state="state-1"');
    const submit = (script: string) =>
      postJson('/playground/form', {
        user: 'alice',
        channel: 'general',
        formId: 'create',
        state: 'state-1',
        values: { name: 'Teaser', script, voice: 'nova' },
      });
    const invalid = await submit('short');
    expect(invalid.body).toEqual({
      ok: true,
      kind: 'form-errors',
      errors: { script: 'Write at least 10 characters.' },
    });
    const valid = await submit('A long enough script.');
    expect(valid.body.kind).toBe('message');
    expect(valid.body.messages[0].html).toContain('Teaser');
    expect(pg.bot.calls.at(-1)).toMatchObject({
      kind: 'form',
      req: { user: 'playground:local:alice' },
      input: {
        formId: 'create',
        state: 'state-1',
        values: { name: 'Teaser', script: 'A long enough script.', voice: 'nova' },
      },
    });
    expect(await history('bob')).toHaveLength(1);
  });

  it('replaces the message that opened a form when the submission answers `update`', async () => {
    const { id } = await liveCard();
    const opened = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: id,
      action: 'video.schedule',
      value: 'vid_123',
    });
    expect(opened.body.kind).toBe('form');
    const { body } = await postJson('/playground/form', {
      user: 'alice',
      channel: 'general',
      formId: 'schedule',
      state: 'vid_123',
      values: { when: 'tomorrow 9am' },
      messageId: id,
    });
    expect(body.messages[0].id).toBe(id);
    expect((await history('bob'))[0]?.html).toContain('Scheduled for tomorrow 9am.');
  });
});

describe('live updates (server-sent events)', () => {
  it('pushes a card edited by the outbox to every open page', async () => {
    const bob = await sse('bob');
    const address = await pg.adapter.sender.post(pg.adapter.conversation(), videoCard(10), {
      dedupeId: 'outbox:7',
    });
    const id = address.split(':')[3];
    const posted = await bob.next((e) => e.event === 'message' && (e.data as View).id === id);
    expect((posted!.data as View).html).toContain('value="10"');
    await pg.adapter.sender.update(address, videoCard(60));
    const updated = await bob.next(
      (e) =>
        e.event === 'message' && (e.data as View).id === id && (e.data as View).html.includes('value="60"'),
    );
    expect(updated?.data).toMatchObject({ id, channel: 'general' });
    expect((await history('carol'))[0]?.html).toContain('value="60"');
    bob.close();
  });

  it("sends private messages only to their owner's pages", async () => {
    const alice = await sse('alice');
    const bob = await sse('bob');
    await command('help', 'alice');
    await command('announce hello', 'carol');
    await alice.next((e) => JSON.stringify(e.data).includes('Announcement'));
    await bob.next((e) => JSON.stringify(e.data).includes('Announcement'));
    const text = (events: { data: unknown }[]) => JSON.stringify(events.map((e) => e.data));
    expect(text(alice.events)).toContain('reelbot help');
    expect(text(bob.events)).not.toContain('reelbot help');
    expect(text(bob.events)).not.toContain('/reel announce');
    alice.close();
    bob.close();
  });

  it('stop() ends the open streams', async () => {
    const stream = await sse('alice');
    await pg.adapter.stop();
    expect(await stream.next(() => false)).toBeUndefined();
  });
});

describe('sender', () => {
  const conversation = () => pg.adapter.conversation();

  it('threads replies under their card, one level deep', async () => {
    const parent = await pg.adapter.sender.post(conversation(), videoCard(100), { dedupeId: 'outbox:1' });
    const reply = await pg.adapter.sender.post(
      conversation(),
      { title: md`Render done` },
      { dedupeId: 'outbox:2', threadOf: parent },
    );
    await pg.adapter.sender.post(
      conversation(),
      { title: md`Posted` },
      { dedupeId: 'outbox:3', threadOf: reply },
    );
    const views = await history('bob');
    const parentId = parent.split(':')[3];
    expect(views.map((v) => v.threadOf)).toEqual([undefined, parentId, parentId]);
    const page = await (await fetch(`${pg.url}/?user=bob`)).text();
    expect(page).toContain('data-testid="thread-toggle">2 replies</button>');
  });

  it('returns the same message for a retried post (same dedupeId)', async () => {
    const first = await pg.adapter.sender.post(conversation(), { title: md`A` }, { dedupeId: 'outbox:9' });
    const second = await pg.adapter.sender.post(conversation(), { title: md`A` }, { dedupeId: 'outbox:9' });
    expect(second).toBe(first);
    expect(await history('alice')).toHaveLength(1);
  });

  it('shows an edit of a card from an earlier run (not in memory) again, at the same address', async () => {
    await pg.adapter.sender.update('playground:local:general:old-1', { title: md`From before the restart` });
    const views = await history('alice');
    expect(views.map((v) => v.id)).toEqual(['old-1']);
    expect(views[0]?.html).toContain('From before the restart');
  });

  it('refuses addresses of another platform, workspace or channel, without retrying', async () => {
    for (const address of ['slack:T1:C1', 'playground:other:general', 'playground:local:nope', 'garbage']) {
      const error = await pg.adapter.sender
        .post(address, { title: md`x` }, { dedupeId: `d-${address}` })
        .catch((e) => e);
      expect(error).toBeInstanceOf(ChatDeliveryError);
      expect(error.retryable).toBe(false);
    }
    await expect(
      pg.adapter.sender.update('playground:local:general', { title: md`x` }),
    ).rejects.toBeInstanceOf(ChatDeliveryError);
  });

  it('notifies one user privately', async () => {
    await pg.adapter.sender.notify?.('playground:local:carol', conversation(), {
      title: md`Your approval expired`,
    });
    expect(await history('alice')).toEqual([]);
    expect((await history('carol'))[0]?.html).toContain('Only visible to you');
    await expect(
      pg.adapter.sender.notify?.('slack:T1:U1', conversation(), { title: md`x` }),
    ).rejects.toBeInstanceOf(ChatDeliveryError);
  });

  it('exposes users with their addresses and conversations', () => {
    expect(pg.adapter.users.map((u) => u.address)).toEqual([
      'playground:local:alice',
      'playground:local:bob',
      'playground:local:carol',
    ]);
    expect(pg.adapter.conversation('launches')).toBe('playground:local:launches');
    expect(() => pg.adapter.conversation('nope')).toThrow(/no channel/);
    expect(pg.adapter.sender.platform).toBe('playground');
  });
});

describe('bad input', () => {
  const cases: [string, string, unknown, number, RegExp][] = [
    ['invalid JSON', '/playground/command', '{"user":', 400, /not valid JSON/],
    ['missing text', '/playground/command', { user: 'alice', channel: 'general' }, 400, /text: /],
    [
      'unknown user',
      '/playground/command',
      { user: 'mallory', channel: 'general', text: 'help' },
      400,
      /Unknown user "mallory"; use one of: alice, bob, carol/,
    ],
    [
      'unknown channel',
      '/playground/command',
      { user: 'alice', channel: 'random', text: 'help' },
      400,
      /Unknown channel "random"/,
    ],
    [
      'a colon in an id',
      '/playground/action',
      { user: 'alice', channel: 'general', messageId: 'a:b', action: 'x', value: '' },
      400,
      /messageId: /,
    ],
    [
      'a bad time zone',
      '/playground/command',
      { user: 'alice', channel: 'general', text: 'help', timeZone: 'Mars/Base' },
      400,
      /timeZone: must be an IANA time zone/,
    ],
    [
      'non-string form values',
      '/playground/form',
      { user: 'alice', channel: 'general', formId: 'create', state: '', values: { a: 1 } },
      400,
      /values\.a: /,
    ],
    ['an array body', '/playground/form', [], 400, /body: /],
  ];
  it.each(cases)('%s → %i with a clear message', async (_name, path, body, status, message) => {
    const res = await postJson(path, body);
    expect(res.status).toBe(status);
    expect(res.body.ok).toBe(false);
    expect(res.body.error).toMatch(message);
    expect(pg.bot.calls).toEqual([]);
  });

  it('refuses bodies that are not JSON (415) or too large (413)', async () => {
    const form = await fetch(`${pg.url}/playground/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=alice&channel=general&text=help',
    });
    expect(form.status).toBe(415);
    const big = await postJson('/playground/command', {
      user: 'alice',
      channel: 'general',
      text: 'x'.repeat(70_000),
    });
    expect(big.status).toBe(413);
    expect(pg.bot.calls).toEqual([]);
  });

  it('answers wrong methods with 405, unknown routes with 404', async () => {
    const get = await fetch(`${pg.url}/playground/command`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${pg.url}/playground/nothing`)).status).toBe(404);
    expect((await fetch(`${pg.url}/`, { method: 'DELETE' })).status).toBe(405);
  });

  it('rejects history and event streams for unknown users', async () => {
    expect((await fetch(`${pg.url}/playground/messages?user=mallory&channel=general`)).status).toBe(400);
    expect((await fetch(`${pg.url}/playground/messages?user=alice&channel=nope`)).status).toBe(400);
    expect((await fetch(`${pg.url}/playground/events?user=mallory`)).status).toBe(400);
  });

  it('survives a client that disconnects mid-body', async () => {
    await new Promise<void>((resolve) => {
      const req = request(`${pg.url}/playground/command`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('error', () => resolve());
      // Gone once the first half of the body has left.
      req.write('{"user":"al', () => {
        req.destroy();
        resolve();
      });
    });
    expect((await command('help')).status).toBe(200);
  });
});

describe('MessageLog', () => {
  it('keeps a bounded list per channel, dropping the oldest', () => {
    const log = new MessageLog(3);
    for (let i = 1; i <= 5; i++)
      log.add({ kind: 'card', id: `m${i}`, channel: 'general', at: i, card: { title: md`${i}` } });
    log.add({ kind: 'card', id: 'x', channel: 'other', at: 0, card: { title: md`x` } });
    expect(log.visible('general', 'alice').map((m) => m.id)).toEqual(['m3', 'm4', 'm5']);
    expect(log.visible('other', 'alice')).toHaveLength(1);
  });

  it('replaces a card in place', () => {
    const log = new MessageLog();
    log.add({ kind: 'card', id: 'a', channel: 'c', at: 0, card: { title: md`old` } });
    log.add({ kind: 'card', id: 'b', channel: 'c', at: 0, card: { title: md`next` } });
    log.replaceCard('c', 'a', { title: md`new` });
    expect(log.visible('c', 'u').map((m) => (m.kind === 'card' ? m.card.title : ''))).toEqual([
      'new',
      'next',
    ]);
    expect(log.replaceCard('c', 'missing', { title: md`x` })).toBeUndefined();
  });
});

describe('only on this machine', () => {
  const getWithHost = (host: string, path: string) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(`${pg.url}${path}`);
      const req = request({ hostname: url.hostname, port: url.port, path, headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

  it('refuses a request addressed to another host name (DNS rebinding), on the page and the API', async () => {
    expect(await getWithHost('evil.example', '/')).toBe(403);
    expect(await getWithHost('evil.example:80', '/playground/messages?user=alice&channel=general')).toBe(403);
    expect(await getWithHost(`localhost:${new URL(pg.url).port}`, '/')).toBe(200);
    expect(await getWithHost(`127.0.0.1:${new URL(pg.url).port}`, '/')).toBe(200);
  });
});
