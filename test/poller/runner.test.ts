import { afterEach, describe, expect, it } from 'vitest';
import { postCard, videoCardKey } from '../../src/core/live/live-card.js';
import { md } from '../../src/core/text/text.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { Runner } from '../../src/poller/index.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { progressWatcher } from './fixtures/progress-watcher.js';
import {
  ALICE,
  CONV,
  completed,
  FakeChatSender,
  memoryStore,
  recordingLogger,
  scriptedApi,
} from './support.js';

let store: SqliteStore | undefined;
afterEach(() => store?.close());

describe('Runner', () => {
  it('polls, and the commit nudges the sender so the completion is delivered at once; stop() ends both', async () => {
    store = memoryStore(systemClock);
    const s = store;
    const key = videoCardKey('v1', CONV);
    const now = Date.now();
    await s.transaction(async () => {
      await postCard(s, { key, conversation: CONV, card: { title: md`Video v1` } });
      await s.watches.add({
        kind: 'generation',
        target: 'v1',
        owner: ALICE,
        conversation: CONV,
        cardKey: key,
        state: {},
        nextCheckAt: now,
        expiresAt: now + 3600_000,
      });
    });
    const chat = new FakeChatSender('slack');
    const { api } = scriptedApi((id) => completed(id));
    const logger = recordingLogger();
    let commits = 0;
    const runner = new Runner({
      poller: {
        store: s,
        watchers: { generation: progressWatcher() },
        apiFor: () => api,
        clock: systemClock,
        logger,
        concurrency: 2,
        intervalMs: 10,
        onCommit: () => commits++,
      },
      // A long interval: only the nudge can deliver within the test.
      sender: { store: s, senders: { slack: chat }, clock: systemClock, logger, intervalMs: 60_000 },
    });
    runner.start();
    await expect.poll(() => chat.titles(), { timeout: 5_000 }).toContain('post:Video v1 is ready');
    await runner.stop();
    expect(commits).toBe(1);
    expect(await s.outbox.depth()).toBe(0);
    expect(await s.watches.active()).toEqual([]);
  });
});
