/**
 * The dispatcher and a locked database: a handler that failed with SQLITE_BUSY is run again after
 * an asynchronous pause through the Clock, within a budget, but never once it has sent a call that changes
 * something at the video service (running it again could act twice). Virtual time: `sleep` only moves the
 * clock, so the budget is spent without waiting (the real lock and the event loop: test/store/locked-database).
 */
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type Bot, createBot } from '../../src/core/dispatch/bot.js';
import type { CommandContext, RequestInfo } from '../../src/core/dispatch/context.js';
import { isDatabaseBusy } from '../../src/core/dispatch/database-busy.js';
import { message } from '../../src/core/text/cards.js';
import { CatalogCache } from '../../src/core/video-api/catalog-cache.js';
import type { VideoApi } from '../../src/core/video-api/video-api.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { recordingLogger, T0 } from '../poller/support.js';
import { cardText } from '../support/card-text.js';
import { TestClock } from '../support/test-clock.js';

const busy = () => new Database.SqliteError('database is locked', 'SQLITE_BUSY');
const req: RequestInfo = {
  platform: 'playground',
  user: 'playground:W1:alice',
  conversation: 'playground:W1:C1',
};

let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A bot with one command, `try`, whose body the test gives; the API records which calls were sent. */
function botWith(body: (ctx: CommandContext, attempt: number) => Promise<string>) {
  const clock = new TestClock(T0);
  const logger = recordingLogger();
  const sent: string[] = [];
  const api = {
    me: { get: async () => sent.push('me.get') },
    videos: { update: async () => sent.push('videos.update') },
  } as unknown as VideoApi;
  store = openStore({ path: ':memory:', secretKey: randomBytes(32), clock });
  let attempts = 0;
  const bot: Bot = createBot(
    { store, apiFor: () => api, clock, logger, catalog: new CatalogCache(clock), deploymentKey: 'k' },
    [
      {
        commands: [
          {
            name: 'try',
            summary: 'test',
            options: [],
            examples: [],
            run: async (ctx) => message({ title: cardText(await body(ctx, ++attempts)) }),
          },
        ],
      },
    ],
  );
  return { bot, clock, logger, sent, attempts: () => attempts };
}

const titleOf = (r: Awaited<ReturnType<Bot['handleText']>>) => (r.kind === 'message' ? r.card : undefined);

describe('a handler failing on a locked database', () => {
  it('recognises the driver’s busy and locked codes, and nothing else', () => {
    expect(isDatabaseBusy(busy())).toBe(true);
    expect(isDatabaseBusy(new Database.SqliteError('locked', 'SQLITE_LOCKED'))).toBe(true);
    expect(isDatabaseBusy(new Database.SqliteError('snapshot', 'SQLITE_BUSY_SNAPSHOT'))).toBe(true);
    expect(isDatabaseBusy(new Database.SqliteError('full', 'SQLITE_FULL'))).toBe(false);
    expect(isDatabaseBusy(new Error('database is locked'))).toBe(false);
  });

  it('is run again after pauses through the clock when it only read, and succeeds', async () => {
    const t = botWith(async (ctx, attempt) => {
      const api = await ctx.api();
      await api.me.get();
      if (attempt < 4) throw busy();
      return 'done';
    });
    const response = await t.bot.handleText(req, 'try');
    expect(titleOf(response)?.title).toBe('done');
    expect(t.attempts()).toBe(4);
    expect(t.clock.sleeps).toEqual([25, 50, 100]);
  });

  it('is not run again once it sent a remote write: the failure is rethrown as an internal error', async () => {
    const t = botWith(async (ctx) => {
      const api = await ctx.api();
      await api.videos.update('v1', {});
      throw busy();
    });
    const response = await t.bot.handleText(req, 'try');
    expect(t.attempts()).toBe(1);
    expect(t.sent).toEqual(['videos.update']);
    expect(titleOf(response)?.text).toContain('Something went wrong on my side');
    expect(titleOf(response)?.text).not.toContain('database is busy');
  });

  it('says the database is busy when the budget runs out, within about 2.5 s of clock time', async () => {
    const t = botWith(() => Promise.reject(busy()));
    const started = t.clock.now();
    const response = await t.bot.handleText(req, 'try');
    expect(titleOf(response)?.text).toMatch(
      /my database is busy \(ref `[0-9a-f]{8}`\)\. Nothing was changed/,
    );
    expect(t.clock.now() - started).toBeLessThanOrEqual(2_500);
    expect(t.clock.now() - started).toBeGreaterThan(2_000);
    expect(t.attempts()).toBeGreaterThan(5);
    expect(t.logger.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'database locked; gave up',
    ]);
    expect(t.logger.lines.some((l) => l.level === 'error')).toBe(false);
  });

  it('is not run again for other failures', async () => {
    const t = botWith(() => Promise.reject(new Database.SqliteError('disk full', 'SQLITE_FULL')));
    await t.bot.handleText(req, 'try');
    expect(t.attempts()).toBe(1);
    expect(t.clock.sleeps).toEqual([]);
  });
});
