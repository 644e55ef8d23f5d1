/**
 * Durability: watches live in SQLite, so a stopped or killed poller is replaced by a new one on the same
 * file and the job ends with exactly one completion notification.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postCard, videoCardKey } from '../../src/core/live/live-card.js';
import { md } from '../../src/core/text/text.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { OutboxSender } from '../../src/poller/outbox-sender.js';
import { Poller } from '../../src/poller/poller.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { progressWatcher } from './fixtures/progress-watcher.js';
import {
  ALICE,
  CONV,
  completed,
  FakeChatSender,
  newSecretKey,
  processing,
  recordingLogger,
  scriptedApi,
  T0,
  tempDir,
} from './support.js';

const HOUR = 3600_000;
const KEY = videoCardKey('v1', CONV);

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function fileStore(path: string, secretKey: Buffer, clock = systemClock): SqliteStore {
  const store = openStore({ path, secretKey, clock });
  cleanups.push(() => store.close());
  return store;
}

/** A video job as a command starts it: its card queued for posting and a watch on it. */
async function startJob(store: SqliteStore, now: number): Promise<string> {
  return await store.transaction(async () => {
    await postCard(store, { key: KEY, conversation: CONV, card: { title: md`Video v1` } });
    return (
      await store.watches.add({
        kind: 'generation',
        target: 'v1',
        owner: ALICE,
        conversation: CONV,
        cardKey: KEY,
        state: {},
        nextCheckAt: now,
        expiresAt: now + 24 * HOUR,
      })
    ).id;
  });
}

function poller(store: SqliteStore, clock: TestClock, done: boolean): Poller {
  const { api } = scriptedApi((id) => (done ? completed(id) : processing(id, 50)));
  return new Poller({
    store,
    watchers: { generation: progressWatcher() },
    apiFor: () => api,
    clock,
    logger: recordingLogger(),
    concurrency: 2,
  });
}

const completions = (chat: FakeChatSender) => chat.calls.filter((c) => c.card.title === 'Video v1 is ready');

describe('restart', () => {
  it('a new Poller and Store on the same file continue the job: one completion notification', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'reelbot.db');
    const secretKey = newSecretKey();
    const clock = new TestClock(T0);
    const chat = new FakeChatSender('slack', clock);

    const first = fileStore(path, secretKey, clock);
    const id = await startJob(first, clock.now());
    const p1 = poller(first, clock, false);
    await p1.tick();
    await new OutboxSender({
      store: first,
      senders: { slack: chat },
      clock,
      logger: recordingLogger(),
    }).drain();
    await p1.stop();
    await first.close();
    expect(chat.titles()).toEqual(['post:Video v1']);

    clock.advance(HOUR);
    const second = fileStore(path, secretKey, clock);
    expect(await second.watches.get(id)).toMatchObject({
      status: 'active',
      state: { checks: 1, percent: 50 },
    });
    const p2 = poller(second, clock, true);
    const sender = new OutboxSender({
      store: second,
      senders: { slack: chat },
      clock,
      logger: recordingLogger(),
    });
    for (let i = 0; i < 3; i++) {
      await p2.tick();
      await sender.drain();
      clock.advance(HOUR);
    }
    expect(await second.watches.get(id)).toMatchObject({ status: 'done', state: { checks: 2 } });
    expect(completions(chat)).toHaveLength(1);
    expect(chat.titles()).toEqual(['post:Video v1', 'update:Video v1', 'post:Video v1 is ready']);
  });

  it('a completion committed just before a crash is delivered once by the next process', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'reelbot.db');
    const secretKey = newSecretKey();
    const clock = new TestClock(T0);
    const chat = new FakeChatSender('slack', clock);

    const first = fileStore(path, secretKey, clock);
    await startJob(first, clock.now());
    await poller(first, clock, true).tick(); // committed, never delivered: the process dies here
    await first.close();

    for (let run = 0; run < 2; run++) {
      const next = fileStore(path, secretKey, clock);
      clock.advance(HOUR);
      await poller(next, clock, true).tick();
      await new OutboxSender({
        store: next,
        senders: { slack: chat },
        clock,
        logger: recordingLogger(),
      }).drain();
      await next.close();
    }
    expect(completions(chat)).toHaveLength(1);
  });

  it('a poller process killed with SIGKILL mid-job: the next one finishes it with one completion', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'reelbot.db');
    const secretKey = newSecretKey();

    const setup = fileStore(path, secretKey);
    const id = await startJob(setup, Date.now());

    const child = spawn(
      'npx',
      ['tsx', 'test/poller/fixtures/run-poller.ts', path, secretKey.toString('hex')],
      {
        cwd: join(import.meta.dirname, '../..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let pid: number | undefined;
    cleanups.push(async () => {
      if (pid !== undefined) killQuietly(pid);
      killQuietly(child);
      await exited;
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    pid = await readyPid(child);

    // Let it make progress, then kill it in the middle of its polling.
    await expect
      .poll(async () => Number((await setup.watches.get(id))?.state.checks ?? 0), {
        timeout: 20_000,
        interval: 20,
        message: 'the poller process makes progress',
      })
      .toBeGreaterThanOrEqual(5)
      .catch((error: unknown) => {
        throw new Error(`${String(error)}\nchild stderr:\n${stderr}`);
      });
    // The child's poller logged no warning or error (npm's own notices aside).
    expect(stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'))).toEqual([]);
    process.kill(pid, 'SIGKILL');
    pid = undefined;
    await exited;
    const before = (await setup.watches.get(id))!;
    expect(before.status).toBe('active');
    await setup.close();

    const clock = new TestClock(Date.now() + HOUR);
    const store = fileStore(path, secretKey, clock);
    const chat = new FakeChatSender('slack', clock);
    const p = poller(store, clock, true);
    const sender = new OutboxSender({ store, senders: { slack: chat }, clock, logger: recordingLogger() });
    for (let i = 0; i < 3; i++) {
      await p.tick();
      await sender.drain();
      clock.advance(HOUR);
    }
    expect(await store.watches.get(id)).toMatchObject({
      status: 'done',
      state: { checks: Number(before.state.checks) + 1 },
    });
    expect(completions(chat)).toHaveLength(1);
    // The card was posted once (with its latest content) and the progress edits coalesced.
    expect(chat.calls.filter((c) => c.kind === 'post' && c.card.title === 'Video v1')).toHaveLength(1);
    expect(await store.outbox.depth()).toBe(0);
  }, 60_000);
});

/** Waits for the fixture's `ready <pid>` line (the pid of the process running the poller). */
function readyPid(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`poller fixture exited (${code}) before ready: ${err}`)));
  });
}

function killQuietly(target: number | ChildProcess): void {
  try {
    if (typeof target === 'number') process.kill(target, 'SIGKILL');
    else if (target.exitCode === null && target.signalCode === null) target.kill('SIGKILL');
  } catch {
    // already gone
  }
}
