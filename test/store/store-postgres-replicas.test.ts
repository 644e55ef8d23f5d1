/**
 * What only PostgreSQL has to prove: several replicas (here two `PostgresStore`s on one database)
 * racing on the same rows, where exactly one must win; transactions that conflict and are run again; concurrent
 * transactions of one replica isolated from each other; a workspace purge on a database whose default collation
 * is a language's (ICU en-US), where the address ranges only hold in byte order; the start-up secret key check.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Store, StoredKeyUnreadableError } from '../../src/core/ports/index.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { MAX_ATTEMPTS, TransactionAbortedError } from '../../src/store/postgres/transactions.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { TestClock } from '../support/test-clock.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  card,
  HOUR,
  newSecretKey,
  newWatch,
  recordingLogger,
  reply,
  T0,
} from './helpers.js';

const ROUNDS = 20;

let server: TestPostgres;
const opened: PostgresStore[] = [];

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

interface Replicas {
  a: PostgresStore;
  b: PostgresStore;
  clock: TestClock;
  url: string;
  secretKey: Buffer;
}

/** Two replicas on one fresh database, sharing a secret key and a clock. */
async function replicas(): Promise<Replicas> {
  const url = await server.createDatabase();
  const secretKey = newSecretKey();
  const clock = new TestClock(T0);
  const a = await open(url, secretKey, clock);
  const b = await open(url, secretKey, clock);
  return { a, b, clock, url, secretKey };
}

async function open(url: string, secretKey: Buffer, clock: TestClock): Promise<PostgresStore> {
  // Overlapping transactions: these tests race them on purpose (conflicts, the retry, isolation).
  const store = await openPostgresStore({ url, secretKey, clock, poolSize: 4 });
  opened.push(store);
  return store;
}

/** Resolves once `n` callers have arrived: each caller awaits it, so all of them have done what came before. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === n) release();
    return all;
  };
}

const approval = (id: string) => ({
  id,
  conversation: CHANNEL,
  requester: ALICE,
  action: { command: 'publish', args: {}, idempotencyKey: `k-${id}`, summary: 'Publish' },
  cardKey: `card:${id}`,
  expiresAt: null,
});

describe('two replicas racing on one row: exactly one wins', () => {
  it('approvals.decide, as single statements', async () => {
    const { a, b } = await replicas();
    for (let i = 0; i < ROUNDS; i++) await a.approvals.create(approval(`apr_${i}`));
    for (let i = 0; i < ROUNDS; i++) {
      const [byA, byB] = await Promise.all([
        a.approvals.decide(`apr_${i}`, { status: 'approved', by: ALICE, at: T0 }),
        b.approvals.decide(`apr_${i}`, { status: 'rejected', by: BOB, at: T0 }),
      ]);
      expect([byA, byB].filter(Boolean)).toHaveLength(1);
      expect((await a.approvals.get(`apr_${i}`))?.status).toBe(byA ? 'approved' : 'rejected');
    }
  });

  it('approvals.decide, in transactions that both read it pending first (the loser runs again)', async () => {
    const { a, b } = await replicas();
    await a.approvals.create(approval('apr_1'));
    const bothRead = barrier(2);
    let runs = 0;
    const decide = (store: Store, by: string) =>
      store.transaction(async (tx) => {
        runs++;
        expect((await tx.approvals.get('apr_1'))?.status).toBeDefined();
        await bothRead();
        const won = await tx.approvals.decide('apr_1', { status: 'approved', by, at: T0 });
        if (won) await tx.outbox.enqueue('slack', reply(`approved by ${by}`), 'apr_1:decided');
        return won;
      });
    const results = await Promise.all([decide(a, ALICE), decide(b, BOB)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(3);
    const decided = await a.approvals.get('apr_1');
    expect(decided?.decidedBy).toBe(results[0] ? ALICE : BOB);
    expect(await b.outbox.depth()).toBe(1);
  });

  it('approvals.vote at an All stage of two: both count once, and the stage moves on once', async () => {
    const { a, b } = await replicas();
    await a.approvals.create(approval('apr_1'));
    const bothRead = barrier(2);
    const approve = (store: Store, by: string) =>
      store.transaction(async (tx) => {
        expect((await tx.approvals.get('apr_1'))?.stage ?? 0).toBe(0);
        await bothRead();
        await tx.approvals.vote('apr_1', { round: 0, stage: 0, by, covers: [by], at: T0 });
        if ((await tx.approvals.votes('apr_1', 0)).length < 2) return 'counted';
        return (await tx.approvals.advance('apr_1', { round: 0, from: 0, to: 1 })) ? 'moved on' : 'not moved';
      });
    expect((await Promise.all([approve(a, ALICE), approve(b, BOB)])).sort()).toEqual(['counted', 'moved on']);
    expect((await a.approvals.votes('apr_1', 0)).map((v) => v.by).sort()).toEqual([ALICE, BOB].sort());
    expect((await b.approvals.get('apr_1'))?.stage).toBe(1);
  });

  it('outbox.claim', async () => {
    const { a, b, clock } = await replicas();
    for (let i = 0; i < ROUNDS; i++) await a.outbox.enqueue('slack', reply(`r${i}`), `k${i}`);
    const items = await a.outbox.ready('slack', clock.now(), ROUNDS);
    expect(items).toHaveLength(ROUNDS);
    for (const item of items) {
      const claims = await Promise.all([
        a.outbox.claim(item.id, clock.now(), 30_000),
        b.outbox.claim(item.id, clock.now(), 30_000),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
    }
    expect(await b.outbox.ready('slack', clock.now(), ROUNDS)).toEqual([]);
  });

  it('effects.claim', async () => {
    const { a, b } = await replicas();
    for (let i = 0; i < ROUNDS; i++) {
      await a.effects.begin({
        idempotencyKey: `e${i}`,
        command: 'publish',
        args: {},
        request: {},
        nextAt: T0,
      });
    }
    for (let i = 0; i < ROUNDS; i++) {
      const claims = await Promise.all([
        a.effects.claim(`e${i}`, { from: T0, until: T0 + 60_000 }),
        b.effects.claim(`e${i}`, { from: T0, until: T0 + 60_000 }),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
    }
    expect(await b.effects.due(T0, ROUNDS)).toEqual([]);
  });

  it('idempotency.keyFor: both get the first key stored, and agree on a renewed one', async () => {
    const { a, b, clock } = await replicas();
    for (let i = 0; i < ROUNDS; i++) {
      const [fromA, fromB] = await Promise.all([
        a.idempotency.keyFor(`act${i}`),
        b.idempotency.keyFor(`act${i}`),
      ]);
      expect(fromA).toBe(fromB);
    }
    const first = await a.idempotency.keyFor('typed', { reuseForMs: 60_000 });
    clock.advance(2 * 60_000);
    for (let i = 0; i < 3; i++) {
      const [fromA, fromB] = await Promise.all([
        a.idempotency.keyFor('typed', { reuseForMs: 60_000 }),
        b.idempotency.keyFor('typed', { reuseForMs: 60_000 }),
      ]);
      expect(fromA).toBe(fromB);
      expect(fromA).not.toBe(first);
    }
  });

  it('idempotency.keyFor inside transactions (a conflict on the insert runs the loser again)', async () => {
    const { a, b } = await replicas();
    const keys = await Promise.all(
      [a, b, a, b].map((store) => store.transaction((tx) => tx.idempotency.keyFor('create:slack:T1:U1:x'))),
    );
    expect(new Set(keys).size).toBe(1);
  });

  it('outbox.enqueue with one dedupe key, as statements and in transactions', async () => {
    const { a, b } = await replicas();
    for (let i = 0; i < ROUNDS; i++) {
      const added = await Promise.all([
        a.outbox.enqueue('slack', reply('a'), `k${i}`),
        b.outbox.enqueue('slack', reply('b'), `k${i}`),
        a.transaction((tx) => tx.outbox.enqueue('slack', reply('a tx'), `k${i}`)),
        b.transaction((tx) => tx.outbox.enqueue('slack', reply('b tx'), `k${i}`)),
      ]);
      expect(added.filter(Boolean)).toHaveLength(1);
    }
    expect(await a.outbox.depth()).toBe(ROUNDS);
  });
});

describe('transactions', () => {
  it('takes no lock across replicas: 40 read-modify-writes of one row from two replicas all land, conflicts re-run', async () => {
    const url = await server.createDatabase();
    const secretKey = newSecretKey();
    const clock = new TestClock(T0);
    const replicaA = await openPostgresStore({ url, secretKey, clock, poolSize: 4 });
    const replicaB = await openPostgresStore({ url, secretKey, clock, poolSize: 4 });
    opened.push(replicaA, replicaB);
    await replicaA.cardStates.put('video:v1', { n: 0 });
    let runs = 0;
    const increment = (store: Store) =>
      store.transaction(async (tx) => {
        runs++;
        const { n } = (await tx.cardStates.get('video:v1')) as { n: number };
        await tx.cardStates.put('video:v1', { n: n + 1 });
      });
    await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 === 0 ? replicaA : replicaB)));
    expect(await replicaB.cardStates.get('video:v1')).toEqual({ n: 40 });
    // Nothing queues the two replicas' transactions any more: they overlap, and the losers ran again.
    expect(runs).toBeGreaterThan(40);
  });

  it('runs a transaction that conflicted again, so both read-modify-writes land, each once', async () => {
    const { a, b } = await replicas();
    await a.cardStates.put('video:v1', { seen: [] });
    const bothRead = barrier(2);
    const runs = { a: 0, b: 0 };
    const addSeen = (store: Store, who: 'a' | 'b') =>
      store.transaction(async (tx) => {
        runs[who]++;
        const model = (await tx.cardStates.get('video:v1')) as { seen: string[] };
        await bothRead();
        await tx.cardStates.put('video:v1', { seen: [...model.seen, who] });
        await tx.outbox.enqueue('slack', { op: 'update-card', cardKey: `video:v1@${who}` }, `v1:${who}`);
      });
    await Promise.all([addSeen(a, 'a'), addSeen(b, 'b')]);
    expect(runs.a + runs.b).toBe(3);
    const { seen } = (await a.cardStates.get('video:v1')) as { seen: string[] };
    expect([...seen].sort()).toEqual(['a', 'b']);
    expect((await a.outbox.ready('slack', T0, 10)).map((i) => i.dedupeKey).sort()).toEqual(['v1:a', 'v1:b']);
  });

  it(`gives up after ${MAX_ATTEMPTS} runs that all conflict, with the last conflict`, async () => {
    const { a } = await replicas();
    let runs = 0;
    const conflict = Object.assign(new Error('could not serialize access'), { code: '40001' });
    await expect(
      a.transaction(async (tx) => {
        runs++;
        await tx.outbox.enqueue('slack', reply('x'), `x${runs}`);
        throw conflict;
      }),
    ).rejects.toBe(conflict);
    expect(runs).toBe(MAX_ATTEMPTS);
    expect(await a.outbox.depth()).toBe(0);
  });

  it("keeps concurrent transactions of one replica apart: neither sees the other's uncommitted writes", async () => {
    const { a } = await replicas();
    const bothWrote = barrier(2);
    const bothLooked = barrier(2);
    const seen: Record<string, unknown> = {};
    let runs = 0;
    const write = (mine: string, theirs: string) =>
      a.transaction(async (tx) => {
        runs++;
        await tx.cards.put(mine, { conversation: CHANNEL, card: card(mine) });
        await tx.outbox.enqueue('slack', { op: 'post-card', cardKey: mine }, mine);
        await bothWrote();
        const looked = { theirs: await tx.cards.get(theirs), depth: await tx.outbox.depth() };
        // Each reads from its own snapshot: not the other's uncommitted rows. They write different rows, so
        // both commit as they are (REPEATABLE READ: only a row both write makes one run again).
        seen[mine] ??= looked;
        await bothLooked();
      });
    await Promise.all([write('card:1', 'card:2'), write('card:2', 'card:1')]);
    expect(seen).toEqual({
      'card:1': { theirs: undefined, depth: 1 },
      'card:2': { theirs: undefined, depth: 1 },
    });
    expect(runs).toBe(2);
    expect(await a.outbox.depth()).toBe(2);
  });

  it('refuses to report a commit when a statement failed and the callback went on', async () => {
    const { a } = await replicas();
    await expect(
      a.transaction(async (tx) => {
        await tx.watches.add(newWatch({ id: 'w1' }));
        // PostgreSQL aborts the whole transaction at a failed statement (SQLite only undoes the statement).
        await tx.watches.add(newWatch({ id: 'w1' })).catch(() => {});
      }),
    ).rejects.toBeInstanceOf(TransactionAbortedError);
    expect(await a.watches.get('w1')).toBeUndefined();
  });
});

describe('purgeWorkspace on an ICU en-US database', () => {
  it('takes slack:T1 rows found by column and by JSON field, and leaves slack:T10 and slack:t1 alone', async () => {
    const { a } = await replicas();
    for (const team of ['T1', 'T10', 't1']) {
      const conversation = `slack:${team}:C1`;
      const user = `slack:${team}:U1`;
      await a.keys.put(user, { apiKey: 'k', keyPrefix: 'k', teamId: 't', teamName: 'n' });
      await a.subscriptions.add({ conversation, kind: 'calendar', target: '', owner: user });
      await a.cards.put(`card:${team}`, { conversation, card: card(team) });
      await a.outbox.enqueue('slack', { op: 'reply', conversation, card: card('hi') }, `reply:${team}`);
      await a.outbox.enqueue(
        'slack',
        { op: 'notify', user, conversation: 'discord:G1:C1', card: card('hi') },
        `n:${team}`,
      );
      await a.outbox.enqueue('slack', { op: 'update-card', cardKey: `card:${team}` }, `edit:${team}`);
      await a.effects.begin({
        idempotencyKey: `e:${team}`,
        command: 'publish',
        args: {},
        request: { conversation, user },
        nextAt: T0 + HOUR,
      });
    }
    const purged = await a.purgeWorkspace({ workspaces: ['slack:T1'], installations: [] });
    expect(purged).toMatchObject({ linkedKeys: 1, subscriptions: 1, cards: 1, outbox: 3, effects: 1 });
    expect((await a.subscriptions.inWorkspace('slack:T10')).map((s) => s.owner)).toEqual(['slack:T10:U1']);
    expect(await a.subscriptions.inWorkspace('slack:T1')).toEqual([]);
    expect(await a.keys.get('slack:t1:U1')).toBeDefined();
    expect((await a.outbox.ready('slack', T0, 20)).map((i) => i.dedupeKey).sort()).toEqual([
      'edit:T10',
      'edit:t1',
      'n:T10',
      'n:t1',
      'reply:T10',
      'reply:t1',
    ]);
    expect(await a.effects.count()).toBe(2);
  });

  it('takes free text and queried JSON holding a NUL (stored as U+FFFD: PostgreSQL text has none)', async () => {
    const { a } = await replicas();
    await a.outbox.enqueue('slack', { op: 'reply', conversation: CHANNEL, card: card('a\u0000b') }, 'nul');
    await a.effects.begin({
      idempotencyKey: 'e1',
      command: 'create',
      args: { prompt: 'x\u0000y' },
      request: { conversation: CHANNEL, text: 'x\u0000y' },
      nextAt: T0,
    });
    expect((await a.outbox.ready('slack', T0, 1))[0]?.item).toEqual(reply('a\ufffdb'));
    expect((await a.effects.due(T0, 1))[0]).toMatchObject({ args: { prompt: 'x\u0000y' } });
    expect(await a.outbox.failWaitingOn('card:none', 'x')).toBe(0);
    await a.approvals.create({
      id: 'apr_1',
      conversation: CHANNEL,
      requester: ALICE,
      action: { command: 'publish', args: {}, idempotencyKey: 'k', summary: 's' },
      cardKey: 'card:apr_1',
      expiresAt: null,
    });
    expect(
      await a.approvals.decide('apr_1', { status: 'rejected', by: BOB, at: T0, reason: 'no\u0000pe' }),
    ).toBe(true);
    expect((await a.approvals.get('apr_1'))?.reason).toBe('no\ufffdpe');
    expect(await a.purgeWorkspace({ workspaces: ['slack:T1'], installations: [] })).toMatchObject({
      outbox: 1,
      effects: 1,
    });
  });
});

describe('opening', () => {
  it('warns once when linked keys were sealed with another secret key, and reads them as unreadable', async () => {
    const { a, url, clock } = await replicas();
    await a.keys.put(ALICE, { apiKey: 'fl_live_1', keyPrefix: 'fl_live', teamId: 't', teamName: 'n' });
    const logger = recordingLogger();
    const other = await openPostgresStore({ url, secretKey: newSecretKey(), clock, logger });
    opened.push(other);
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ obj: { unreadableLinkedKeys: 1 } }),
    ]);
    await expect(other.keys.get(ALICE)).rejects.toBeInstanceOf(StoredKeyUnreadableError);
  });
});
