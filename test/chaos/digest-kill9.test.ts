/**
 * Digests survive kill -9. The bot runs as a child process (./fixtures/bot-process.ts: the real core, poller
 * and outbox on a file-backed SQLite store); the simulator lives in this process. A channel subscribes to the
 * daily digest at 09:00 and the weekly one on Tuesdays at 09:00 (UTC), and the clock runs an hour a second
 * from Sunday evening to Wednesday past 09:00. The bot is SIGKILLed around each 09:00 (just before, at, just
 * after: while the digest is read, committed or sent) and restarted on the same database. Then: each daily
 * period (Monday, Tuesday, Wednesday) and the weekly one reached the channel exactly once, and the store holds
 * one row per period sent.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScaledClock } from '../../bench/lib/virtual-clock.js';
import { generateApiKey, Simulator } from '../../src/simulator/index.js';
import { openStore } from '../../src/store/sqlite-store.js';
import type { BotRequest, ChatRecord } from './fixtures/bot-process.js';
import { BotHost } from './support/bot-host.js';
import { readJsonLines } from './support/rig.js';

/** One virtual hour per real second. */
const SCALE = 3600;
const HOUR = 3600_000;
const TIMEOUT_MS = 150_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const MONDAY_8 = Date.UTC(2026, 0, 5, 8, 0, 0);
/** The run starts on Sunday evening: the child's start and the subscriptions take a few virtual hours. */
const START = MONDAY_8 - 12 * HOUR;
const USER = 'slack:T1:U1';
const CHANNEL = 'slack:T1:C1';

const digestPosts = (chat: ChatRecord[], kind: 'Daily' | 'Weekly') =>
  chat.filter((r) => r.op === 'post' && r.title.startsWith(`${kind} digest`)).map((r) => r.title);

describe.each(['spec', 'real'] as const)('kill -9 around digest times, %s profile', (profile) => {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-digest-kill9-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'sends each daily and weekly period once, none lost',
    async () => {
      const paths = {
        db: join(dir, 'reelbot.sqlite'),
        log: join(dir, 'app.log'),
        chat: join(dir, 'chat.jsonl'),
        attempts: join(dir, 'attempts.jsonl'),
      };
      const clockConfig = { start: START, realStart: Date.now(), scale: SCALE };
      const clock = new ScaledClock(clockConfig.start, clockConfig.realStart, SCALE);
      const key = generateApiKey();
      const sim = new Simulator({
        profile,
        clock,
        randomSeed: 9,
        speed: 1,
        teams: [
          {
            name: 'Digest team',
            credits: 10_000,
            keys: [{ key }],
            accounts: { youtube: [{ authId: 'acc_yt_1', label: '@digest', isDefault: true }] },
          },
        ],
      });
      const server = createServer((req, res) => sim.handle(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      sim.setPublicBaseUrl(origin);
      sim.seedPostHistory(key, [
        { platform: 'youtube', at: MONDAY_8 - 30 * HOUR, views: 1200, title: 'Earlier launch' },
      ]);

      const secret = randomBytes(32);
      const setup = openStore({ path: paths.db, secretKey: secret });
      await setup.keys.put(USER, { apiKey: key, keyPrefix: key.slice(0, 12), teamId: 't', teamName: 't' });
      await setup.close();

      const host = new BotHost({
        dbPath: paths.db,
        secretHex: secret.toString('hex'),
        apiUrl: `${origin}/api/v1`,
        chatPath: paths.chat,
        attemptsPath: paths.attempts,
        logPath: paths.log,
        clock: clockConfig,
      });
      let kills = 0;
      /** SIGKILL, then a new process on the same files (it fails the test if it never gets ready). */
      const killAndRestart = async () => {
        await host.kill();
        kills++;
        const late = sleep(20_000).then(() => {
          throw new Error(`the bot did not start again: ${host.stderr}`);
        });
        await Promise.race([host.start(), late]);
      };
      try {
        await host.start();
        for (const text of ['subscribe digest daily 09:00', 'subscribe digest weekly tue 09:00']) {
          const ask = { kind: 'text', user: USER, conversation: CHANNEL, text } as Omit<BotRequest, 'id'>;
          const answer = await host.ask(ask, 15_000);
          expect(JSON.stringify(answer)).toContain('Subscribed');
        }
        // Around each 09:00: a kill a few virtual minutes before, at, or after it (0.1 s real is 6 minutes).
        for (let day = 0; day < 3; day++) {
          const due = MONDAY_8 + HOUR + day * 24 * HOUR;
          const offset = [-0.08, 0.01, 0.12][day] as number;
          const at = clockConfig.realStart + (due - START) / SCALE + offset * 1000;
          await sleep(Math.max(0, at - Date.now()));
          await killAndRestart();
          // And once more while the digest may be in the outbox.
          await sleep(30);
          await killAndRestart();
        }
        const deadline = Date.now() + 30_000;
        const want = () => {
          const chat = readJsonLines(paths.chat);
          return digestPosts(chat, 'Daily').length >= 3 && digestPosts(chat, 'Weekly').length >= 1;
        };
        while (!want() && Date.now() < deadline) await sleep(100);
        // A little longer: a duplicate would show up now.
        await sleep(1500);
      } finally {
        await host.stop();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      const chat = readJsonLines(paths.chat);
      expect(kills).toBe(6);
      expect(digestPosts(chat, 'Daily')).toEqual([
        'Daily digest · Mon 5 Jan 2026',
        'Daily digest · Tue 6 Jan 2026',
        'Daily digest · Wed 7 Jan 2026',
      ]);
      expect(digestPosts(chat, 'Weekly')).toEqual(['Weekly digest · Tue 30 Dec 2025 to Mon 5 Jan 2026']);
      const store = openStore({ path: paths.db, secretKey: secret });
      const sent = (await store.digests.sent(CHANNEL)).map((s) => `${s.kind} ${s.period}`);
      await store.close();
      expect(sent.sort()).toEqual([
        'daily 2026-01-05',
        'daily 2026-01-06',
        'daily 2026-01-07',
        'weekly 2026-01-06',
      ]);
    },
    TIMEOUT_MS,
  );
});
