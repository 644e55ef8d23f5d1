/**
 * Start-up order: the HTTP server listens before the chat platforms are connected and before the
 * poller and outbox run. While the Discord gateway is slow, `/healthz` answers "starting" at once and nothing
 * queued is delivered; once connected, it answers ok and the queue goes out. Slack's events wait for Bolt's
 * start: until then Slack is asked to retry.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { postToChannel } from '../../src/core/live/live-card.js';
import { md } from '../../src/core/text/text.js';
import { type RunningApp, startApp } from '../../src/main.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { FakeDiscord } from '../discord/fake-discord.js';
import { IDS, TOKEN, textOfMessage } from '../discord/world.js';
import { FakeSlack } from '../slack/fake-slack.js';
import { BOT_TOKEN, fixture, SIGNING_SECRET, sign } from '../slack/world.js';
import { freePort } from '../support/free-port.js';
import { TestClock } from '../support/test-clock.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Forwards to the fake Discord, holding `GET /gateway/bot` (the first step of a gateway login) until released. */
async function slowGateway(
  target: string,
): Promise<{ url: string; held: () => boolean; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const forward = () => {
      const upstream = request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    };
    if (req.url?.endsWith('/gateway/bot')) {
      held = true;
      void gate.then(forward);
    } else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    release();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, held: () => held, release };
}

/** What /healthz adds about the replica: one process on SQLite holds the Discord gateway if any. */
const replica = (gateway: 'holder' | 'none') => ({ replica: expect.any(String), store: 'sqlite', gateway });

const health = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: res.status, body: (await res.json()) as unknown };
};

it('answers /healthz "starting" while the Discord gateway is slow, and delivers nothing until connected', async () => {
  const fake = await new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
  }).start();
  cleanups.push(() => fake.close());
  const proxy = await slowGateway(fake.url);
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-listen-first-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  // A notice left queued by an earlier run: the outbox must not send it before the bot is up.
  const secret = randomBytes(32);
  const clock = new TestClock();
  const seed = openStore({ path: join(dir, 'reelbot.sqlite'), secretKey: secret, clock });
  await seed.transaction(
    async () =>
      await postToChannel(seed, {
        conversation: `discord:${IDS.guild}:${IDS.channel}`,
        card: { title: md`Left from the last run` },
        dedupeKey: 'earlier',
      }),
  );
  await seed.close();

  const port = await freePort();
  const starting = startApp(
    {
      REELBOT_DATA_DIR: dir,
      REELBOT_SECRET_KEY: secret.toString('base64'),
      PORT: String(port),
      LOG_LEVEL: 'silent',
      DISCORD_TOKEN: TOKEN,
      DISCORD_APPLICATION_ID: IDS.app,
      DISCORD_API_URL: `${proxy.url}/api`,
      DISCORD_GUILD_ID: IDS.guild,
    },
    { clock },
  );
  let app: RunningApp | undefined;
  cleanups.push(async () => {
    proxy.release();
    await (app ?? (await starting.catch(() => undefined)))?.stop();
  });

  await fake.waitFor(() => proxy.held(), 10_000);
  const began = Date.now();
  expect(await health(port)).toEqual({
    status: 503,
    body: { ok: false, status: 'starting', ...replica('holder') },
  });
  const answeredInMs = Date.now() - began;
  // A started outbox or poller arms its ticker on the app's clock as it starts, and delivers at once: no
  // timer is armed, so neither has started and the notice is still queued.
  expect(clock.pending()).toEqual([]);
  expect(fake.channelMessages()).toEqual([]);
  expect(fake.identifies).toHaveLength(0);

  proxy.release();
  app = await starting;
  expect(await health(port)).toEqual({ status: 200, body: { ok: true, ...replica('holder') } });
  expect(fake.identifies).toHaveLength(1);
  const delivered = await fake.waitFor(() => fake.channelMessages()[0], 10_000);
  expect(textOfMessage(delivered)).toContain('Left from the last run');
  expect(answeredInMs).toBeLessThan(1000);
}, 30_000);

it('asks Slack to retry events that arrive before the Slack adapter has started', async () => {
  const fake = await FakeSlack.start();
  cleanups.push(() => fake.close());
  const authTest = fake.hold('auth.test'); // Bolt's start waits for it
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-listen-first-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const starting = startApp({
    REELBOT_DATA_DIR: dir,
    PORT: String(port),
    LOG_LEVEL: 'silent',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
  });
  let app: RunningApp | undefined;
  cleanups.push(async () => {
    await (app ?? (await starting.catch(() => undefined)))?.stop();
  });
  const slash = async () => {
    const body = new URLSearchParams(fixture<Record<string, string>>('slash-command.json')).toString();
    const timestamp = Math.floor(Date.now() / 1000);
    return await fetch(`http://127.0.0.1:${port}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': sign(body, timestamp),
      },
      body,
    });
  };

  await fake.waitFor(() => fake.callsOf('auth.test').length > 0, 'auth.test', 10_000);
  expect(await health(port)).toEqual({
    status: 503,
    body: { ok: false, status: 'starting', ...replica('none') },
  });
  const early = await slash();
  expect(early.status).toBe(503);
  expect(early.headers.get('retry-after')).toBe('1');

  authTest.release();
  app = await starting;
  expect(await health(port)).toEqual({ status: 200, body: { ok: true, ...replica('none') } });
  expect((await slash()).status).toBe(200);
}, 30_000);
