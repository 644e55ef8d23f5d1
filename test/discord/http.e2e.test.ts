/**
 * HTTP interactions mode (`DISCORD_PUBLIC_KEY` set): Discord POSTs interactions to `/discord/interactions` on
 * the shared server, signed with Ed25519 over `timestamp + body`. Real signatures from an Ed25519 key pair made
 * here; forged, tampered and stale requests get 401 before anything is parsed. The first response is the HTTP
 * answer; follow-ups go through the webhook as in gateway mode. The flows (commands, buttons, modals, deferred
 * answers) run on both simulator profiles.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordSigner, discordSigner } from '../support/ed25519.js';
import { DEMO_KEY } from '../support/harness.js';
import { titleOf } from './read-message.js';
import { controlsOf, discordWorld, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

const ping = readFileSync(new URL('./fixtures/ping.json', import.meta.url), 'utf8');

function sign(body: string, timestamp: string, signer: DiscordSigner): string {
  return signer.sign(timestamp, body);
}

async function post(body: string, headers: Record<string, string>): Promise<Response> {
  return await fetch(w.endpoint as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

const now = () => String(Math.floor(w.h.clock.now() / 1000));

describe('HTTP interactions', () => {
  it('answers a signed PING with PONG and never connects to the gateway', async () => {
    w = await discordWorld({ mode: 'http' });
    const timestamp = now();
    const res = await post(ping, {
      'x-signature-ed25519': sign(ping, timestamp, w.keys as DiscordSigner),
      'x-signature-timestamp': timestamp,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 1 });
    expect(w.fake.identifies).toEqual([]);
    expect(w.fake.requests.some((r) => r.path === '/gateway/bot')).toBe(false);
    // Commands are registered in this mode too.
    expect(w.fake.commandPuts).toHaveLength(1);
  });

  it('refuses forged, tampered, stale and unsigned requests with 401', async () => {
    w = await discordWorld({ mode: 'http' });
    const secret = w.keys as DiscordSigner;
    const stranger = discordSigner();
    const t = now();
    const cases: [string, string, Record<string, string>][] = [
      ['another key', ping, { 'x-signature-ed25519': sign(ping, t, stranger), 'x-signature-timestamp': t }],
      [
        'tampered body',
        ping.replace('"type": 1', '"type": 2'),
        { 'x-signature-ed25519': sign(ping, t, secret), 'x-signature-timestamp': t },
      ],
      [
        'other timestamp',
        ping,
        { 'x-signature-ed25519': sign(ping, t, secret), 'x-signature-timestamp': String(Number(t) + 1) },
      ],
      [
        'stale (6 min old)',
        ping,
        {
          'x-signature-ed25519': sign(ping, String(Number(t) - 360), secret),
          'x-signature-timestamp': String(Number(t) - 360),
        },
      ],
      [
        'from the future (6 min)',
        ping,
        {
          'x-signature-ed25519': sign(ping, String(Number(t) + 360), secret),
          'x-signature-timestamp': String(Number(t) + 360),
        },
      ],
      ['no signature', ping, { 'x-signature-timestamp': t }],
      ['no timestamp', ping, { 'x-signature-ed25519': sign(ping, t, secret) }],
      ['garbage signature', ping, { 'x-signature-ed25519': 'zz'.repeat(64), 'x-signature-timestamp': t }],
    ];
    for (const [label, body, headers] of cases) {
      const res = await post(body, headers);
      expect(res.status, label).toBe(401);
    }
    // Four minutes old is still inside the window.
    const recent = String(Number(t) - 240);
    const ok = await post(ping, {
      'x-signature-ed25519': sign(ping, recent, secret),
      'x-signature-timestamp': recent,
    });
    expect(ok.status).toBe(200);
    expect((await fetch(w.endpoint as string)).status).toBe(405);
  });

  it('answers a signed body that is not an interaction with 400', async () => {
    w = await discordWorld({ mode: 'http' });
    const body = JSON.stringify({ hello: 'world' });
    const t = now();
    const res = await post(body, {
      'x-signature-ed25519': sign(body, t, w.keys as DiscordSigner),
      'x-signature-timestamp': t,
    });
    expect(res.status).toBe(400);
  });
});

describe.each(['spec', 'real'] as const)('HTTP interactions on the %s profile', (profile) => {
  const harness = { simulator: { profile } };

  it('runs commands, buttons and modals, with the first response as the HTTP answer', async () => {
    w = await discordWorld({ mode: 'http', linked: ['alice'], harness });
    const whoami = await w.slash('account whoami');
    // Acknowledged in the HTTP answer ("thinking…", private), answered by an edit through the webhook.
    expect(whoami.callbacks[0]).toEqual({ type: 5, data: { flags: 64 } });
    expect(whoami.events).toContain('edit');
    expect(textOfMessage(w.original(whoami))).toContain('You act as Demo Team');

    const link = await w.slash('account link', {}, 'bob');
    expect(link.callbacks[0]).toMatchObject({ type: 9 });
    await w.submit(link, { key: DEMO_KEY }, 'bob');
    expect((await w.h.store.keys.get(w.address('bob')))?.keyPrefix).toBe(DEMO_KEY.slice(0, 12));

    const confirm = await w.slash(
      'create',
      { script: 'Octopuses have three hearts and blue blood.', name: 'Octopus facts' },
      'bob',
    );
    const created = await w.click(w.original(confirm), 'Create (20 credits)', 'bob');
    expect(created.callbacks[0]).toMatchObject({ type: 7 });
    const card = w.fake.channelMessages()[0];
    if (!card) throw new Error('no status card');
    expect(titleOf(card)).toBe('Octopus facts');
    await w.h.until(() => controlsOf(card).includes('Render'), { maxMs: 20 * 60_000 });
    expect(w.fake.edits(card.id).length).toBeGreaterThan(1);
  });

  it('defers over HTTP and follows up through the webhook', async () => {
    w = await discordWorld({ mode: 'http', deferAfterMs: 0, harness });
    const r = await w.slash('credits');
    expect(r.callbacks[0]).toEqual({ type: 5, data: { flags: 64 } });
    await w.fake.waitFor(() => r.events.includes('edit'));
    expect(textOfMessage(w.original(r))).toMatch(/^Credits: 500/);
  });
});
