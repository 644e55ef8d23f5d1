/** Bad input to the playground's endpoints: not JSON, too large, wrong method or route, unknown user, cut off. */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { command, eachOnAFreshPlayground, pg, postJson } from './running-playground.js';

eachOnAFreshPlayground();

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
