/**
 * A linked API key never leaves the store's ciphertext: not in a log line (raw pino output, every level,
 * the client's debug lines included), not in a chat message or response, not in the SQLite file's bytes.
 * The key deliberately does not look like `fl_live_…`, so the logger's masking cannot hide a leak.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createVideoApiFactory } from '../../../src/api/index.js';
import { LINK_FORM_ID } from '../../../src/core/commands/account/link.js';
import { MODULES } from '../../../src/core/commands/index.js';
import { createBot } from '../../../src/core/dispatch/bot.js';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { WATCHERS } from '../../../src/core/live/watchers.js';
import { userAddress } from '../../../src/core/ports/address.js';
import type { Logger } from '../../../src/core/ports/index.js';
import type { Response } from '../../../src/core/text/cards.js';
import { systemClock } from '../../../src/core/time/system-clock.js';
import { CatalogCache } from '../../../src/core/video-api/catalog-cache.js';
import { OutboxSender, Poller } from '../../../src/poller/index.js';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/index.js';
import { openStore, type SqliteStore } from '../../../src/store/sqlite-store.js';
import { FakeChat } from '../../support/fake-chat.js';
import { TestClock } from '../../support/harness.js';
import { typedBy } from '../../support/mentions-as-typed.js';

const SECRET = 'sk_team_4f9c2e7a1b8d3f6e0a5c9b2d7e4f1a8c';
/** The part after the displayed prefix: must not appear anywhere either. */
const SECRET_TAIL = SECRET.slice(12);

/**
 * The harness's pieces, but with a database file (its bytes are checked) and raw pino output at trace
 * level (the harness's logger masks key-shaped strings, which would hide a leak).
 */
async function secretWorld() {
  const clock = new TestClock();
  const sim: RunningSimulator = await startSimulator({
    port: 0,
    clock,
    randomSeed: 3,
    teams: [{ name: 'Secret Team', credits: 300, keys: [{ key: SECRET }] }],
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = pino({ level: 'trace', base: null }, sink) as unknown as Logger;
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-secrets-'));
  const store: SqliteStore = openStore({
    path: join(dir, 'reelbot.db'),
    secretKey: randomBytes(32),
    clock,
    logger,
  });
  const apiFor = createVideoApiFactory({
    baseUrl: sim.url,
    clock,
    timeoutClock: systemClock,
    random: () => 0.5,
    logger,
  });
  const deps = { store, apiFor, clock, logger, catalog: new CatalogCache(clock) };
  const bot = createBot(deps, MODULES);
  const chat = new FakeChat('playground');
  const poller = new Poller({
    store,
    watchers: WATCHERS,
    apiFor: async (owner) => {
      const key = owner ? (await store.keys.get(owner))?.apiKey : undefined;
      return key ? apiFor(key) : undefined;
    },
    clock,
    logger,
    concurrency: 2,
    random: () => 0.5,
  });
  const sender = new OutboxSender({ store, senders: { playground: chat }, clock, logger, random: () => 0.5 });
  const user = (name: string): RequestInfo => ({
    platform: 'playground',
    user: userAddress('playground', 'W1', name),
    userName: name,
    conversation: 'playground:W1:C1',
  });
  return {
    sim,
    store,
    dir,
    logs,
    chat,
    poller,
    sender,
    user,
    api: () => apiFor(SECRET),
    async run(text: string, as: RequestInfo) {
      const response = await bot.handleText(typedBy(as, text), text);
      await sender.drain();
      return response;
    },
    async submit(values: Record<string, string>, as: RequestInfo) {
      const response = await bot.handleForm(as, { formId: LINK_FORM_ID, state: '', values });
      await sender.drain();
      return response;
    },
    async advance(ms: number) {
      clock.advance(ms);
      await poller.tick();
      await sender.drain();
    },
    async close() {
      await poller.stop();
      await sender.stop();
      await store.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('a linked key stays secret', () => {
  let w: Awaited<ReturnType<typeof secretWorld>> | undefined;
  afterEach(async () => w?.close());

  it('never appears in logs, chat, responses or the database file', async () => {
    w = await secretWorld();
    const world = w;
    const responses: Response[] = [];
    const bob = world.user('bob');
    const carol = world.user('carol');
    const say = async (text: string, as = bob) => {
      responses.push(await world.run(text, as));
    };

    // Pasted in the channel: refused.
    await say(`link ${SECRET}`);
    await say(`link "${SECRET}"`);
    // The form, a near miss the service refuses, then the real key (with stray spaces) for two members.
    await say('link');
    responses.push(await world.submit({ key: `${SECRET}x` }, bob));
    responses.push(await world.submit({ key: ` ${SECRET} ` }, bob));
    responses.push(await world.submit({ key: SECRET }, carol));
    expect((await world.store.keys.get(bob.user))?.apiKey).toBe(SECRET);

    // Use it: interactive calls, subscriptions polled in the background, failures of every kind.
    for (const text of ['whoami', 'credits', 'voices', 'accounts', 'options models', 'analytics'])
      await say(text);
    await say('subscribe calendar');
    await say('subscribe videos');
    await world
      .api()
      .videos.create(
        { script: 'A script that is long enough to pass.', voiceId: 'voice_aria_en', name: 'Secret video' },
        { idempotencyKey: 'secret-video' },
      );
    for (let i = 0; i < 5; i++) await world.advance(60_000);
    world.sim.sim.setKnobs({ serverErrorRate: 1 });
    await say('credits', carol);
    await world.advance(10 * 60_000);
    world.sim.sim.setKnobs({ serverErrorRate: 0 });
    world.sim.sim.revokeKey(SECRET);
    await say('whoami');
    await world.advance(10 * 60_000);
    await say('unlink', carol);

    // Something did happen: the test is not vacuous.
    expect(world.chat.posts.map((p) => p.card.title)).toContain('New video: Secret video');
    expect(world.chat.posts.map((p) => p.card.title)).toContain('Subscription stopped');
    expect(world.logs.join('')).toContain('video api response');

    const seen = [
      ...world.logs,
      ...responses.map((r) => JSON.stringify(r)),
      ...world.chat.posts.map((p) => JSON.stringify(p)),
      ...world.chat.updates.map((u) => JSON.stringify(u)),
      ...world.chat.notices.map((n) => JSON.stringify(n)),
    ];
    for (const text of seen) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SECRET_TAIL);
    }

    const scan = () => {
      for (const file of readdirSync(world.dir)) {
        const bytes = readFileSync(join(world.dir, file));
        expect(bytes.includes(Buffer.from(SECRET)), file).toBe(false);
        expect(bytes.includes(Buffer.from(SECRET_TAIL)), file).toBe(false);
        expect(bytes.includes(Buffer.from(SECRET, 'utf16le')), file).toBe(false);
      }
    };
    scan();
    // The store still holds it, encrypted, for bob.
    expect((await world.store.keys.get(bob.user))?.apiKey).toBe(SECRET);
    await world.poller.stop();
    await world.sender.stop();
    await world.store.close();
    // Again once the WAL is checkpointed into the main file.
    scan();
    expect(readdirSync(world.dir)).toContain('reelbot.db');
  });
});
