/**
 * The leader lease (src/store/postgres/leader-lease.ts: one replica holds the Discord gateway)
 * against a real PostgreSQL server: one leader among contenders starting together, a prompt handover on a
 * clean stop, a takeover after the TTL when the leader dies, a leader cut off from the database stepping down
 * before anyone could take over, and never two leaders at once.
 *
 * Expiry runs on the database's clock, which a TestClock cannot move: these tests use the system clock and a
 * short real TTL (1.2 s, renewals every 300 ms: 600/200 ms flapped with a load average of 9), and wait for the
 * leases' own events (onChange), never for a while; a deadline (the Clock port's timer) only turns a missing
 * event into a clear failure. Each contender
 * reaches the server through its own TCP proxy, which a test cuts to kill its connection: 'refuse' closes every
 * socket and the port (a crashed database or process), 'blackhole' stops forwarding bytes (a partition, or
 * a frozen process: queries hang instead of failing). Bounds are generous (a loaded machine) and asserted as
 * upper bounds and orderings; the measured times are printed.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock, Logger } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { LeaderLease, type LeaseRole, STEP_DOWN_AT } from '../../src/store/postgres/leader-lease.js';
import { migratePostgres } from '../../src/store/postgres/migrations.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { TestClock } from '../support/test-clock.js';
import { recordingLogger } from './helpers.js';

const TTL = 1200;
const RENEW = 300;
/** Event-loop and query latency on a loaded machine, added to every upper bound. */
const SLACK = 400;
const NAME = 'discord-gateway';

let server: TestPostgres;

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

/** A TCP proxy to the test server that a test can cut. */
class CuttableProxy {
  readonly #sockets = new Set<Socket>();
  #blackhole = false;
  private constructor(
    readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: number): Promise<CuttableProxy> {
    const tcp = createServer();
    const port = await new Promise<number>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(0, '127.0.0.1', () => resolve((tcp.address() as { port: number }).port));
    });
    const proxy = new CuttableProxy(tcp, port);
    tcp.on('connection', (downstream) => proxy.#accept(downstream, target));
    return proxy;
  }

  #accept(downstream: Socket, target: number): void {
    this.#track(downstream);
    if (this.#blackhole) return; // held open, never answered
    const upstream = tcpConnect(target, '127.0.0.1');
    this.#track(upstream);
    downstream.pipe(upstream);
    upstream.pipe(downstream);
    downstream.on('close', () => upstream.destroy());
    upstream.on('close', () => downstream.destroy());
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => this.#sockets.delete(socket));
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  cut(mode: 'refuse' | 'blackhole'): void {
    if (mode === 'refuse') {
      this.close();
      return;
    }
    this.#blackhole = true;
    for (const socket of this.#sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  close(): void {
    this.server.close();
    for (const socket of this.#sockets) socket.destroy();
  }
}

interface Change {
  holder: string;
  role: LeaseRole;
  term: number;
  /** performance.now(), for durations. */
  at: number;
  /** Date.now(): the same host clock as the test server's, to compare with its expires_at. */
  wall: number;
}

interface Contender {
  holder: string;
  lease: LeaderLease;
  proxy: CuttableProxy;
  pool: pg.Pool;
}

/**
 * Contenders for one lease on one database, each with its own pool and proxy. At every change of role, and at
 * every sample, it counts the contenders whose isLeader() is true: `samples` keeps the counts, `overlaps` the
 * moments two or more believed they lead.
 */
class Contest {
  readonly contenders: Contender[] = [];
  readonly changes: Change[] = [];
  readonly overlaps: string[] = [];
  samples = 0;
  readonly logger = recordingLogger();
  #waiters: { match: (c: Change) => boolean; resolve: (c: Change) => void }[] = [];
  #next = 0;

  private constructor(readonly database: string) {}

  static async open(): Promise<Contest> {
    const url = await server.createDatabase();
    const setup = new pg.Pool({ connectionString: url, max: 1 });
    await migratePostgres(setup, { logger: recordingLogger() });
    await setup.end();
    const contest = new Contest(new URL(url).pathname.slice(1));
    contests.push(contest);
    return contest;
  }

  async add(
    options: { clock?: Clock; ttlMs?: number; attemptTimeoutMs?: number; logger?: Logger } = {},
  ): Promise<Contender> {
    const holder = `replica-${++this.#next}`;
    const proxy = await CuttableProxy.start(server.port);
    const pool = new pg.Pool({ connectionString: proxy.url(this.database), max: 3 });
    pool.on('error', () => {}); // idle clients of a cut proxy
    const lease = new LeaderLease({
      pool,
      name: NAME,
      holder,
      ttlMs: options.ttlMs ?? TTL,
      renewEveryMs: options.ttlMs ? options.ttlMs / 3 : RENEW,
      ...(options.attemptTimeoutMs ? { attemptTimeoutMs: options.attemptTimeoutMs } : {}),
      clock: options.clock ?? systemClock,
      logger: options.logger ?? this.logger,
      onChange: (role, term) =>
        this.#changed({ holder, role, term, at: performance.now(), wall: Date.now() }),
    });
    const contender = { holder, lease, proxy, pool };
    this.contenders.push(contender);
    return contender;
  }

  leaders(): Contender[] {
    return this.contenders.filter((c) => c.lease.isLeader());
  }

  sample(): void {
    this.samples++;
    const leaders = this.leaders();
    if (leaders.length > 1) this.overlaps.push(leaders.map((c) => c.holder).join(' and '));
  }

  #changed(change: Change): void {
    this.changes.push(change);
    this.sample();
    for (const waiter of this.#waiters.filter((w) => w.match(change))) {
      this.#waiters = this.#waiters.filter((w) => w !== waiter);
      waiter.resolve(change);
    }
  }

  /** The first change matching, from now on; fails after `withinMs`. */
  async next(match: (c: Change) => boolean, withinMs: number, what: string): Promise<Change> {
    const event = new Promise<Change>((resolve) => this.#waiters.push({ match, resolve }));
    const stop = new AbortController();
    // A deadline raced against the event, not a wait: it only turns a missing event into a failure.
    const deadline = systemClock.timer(withinMs, stop.signal).then(
      () => Promise.reject(new Error(`${what}: not within ${withinMs} ms`)),
      () => new Promise<never>(() => {}),
    );
    try {
      return await Promise.race([event, deadline]);
    } finally {
      stop.abort();
    }
  }

  /** A leader exists: returns it (waiting for the first one, if the first attempts were slow). */
  async leader(): Promise<Contender> {
    const now = this.leaders();
    if (now.length > 0) return now[0]!;
    const change = await this.next((c) => c.role === 'leader', TTL + RENEW + SLACK, 'a leader');
    return this.contenders.find((c) => c.holder === change.holder)!;
  }

  async row(): Promise<{ holder: string | null; term: number; expires: number; acquired: number }> {
    return await withDirectPool(this.database, async (pool) => {
      const { rows } = await pool.query(
        `SELECT holder, term::float8 AS term, extract(epoch FROM expires_at) * 1000 AS expires,
                extract(epoch FROM acquired_at) * 1000 AS acquired
         FROM leases WHERE name = $1`,
        [NAME],
      );
      return { ...rows[0], expires: Number(rows[0].expires), acquired: Number(rows[0].acquired) };
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.contenders.map((c) => c.lease.stop()));
    for (const c of this.contenders) c.proxy.close();
    await Promise.all(this.contenders.map((c) => c.pool.end().catch(() => {})));
  }
}

const contests: Contest[] = [];
afterEach(async () => {
  await Promise.all(contests.splice(0).map((c) => c.close()));
});

async function withDirectPool<T>(database: string, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${server.port}/${database}` });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

const ms = (n: number) => Math.round(n);

describe('the leader lease on PostgreSQL', () => {
  it('gives the lease to exactly one of three contenders starting together, and keeps it there', async () => {
    const contest = await Contest.open();
    // Attempts may take up to the step-down (not one renewal period): with a load average of 14, statements
    // took over 300 ms three times in a row and the leader stepped down and came back (safe, but not stable).
    const patient = { attemptTimeoutMs: TTL * STEP_DOWN_AT };
    const all = [await contest.add(patient), await contest.add(patient), await contest.add(patient)];
    await Promise.all(all.map((c) => c.lease.start()));
    const leader = await contest.leader();
    expect(contest.leaders()).toEqual([leader]);
    expect(leader.lease.term()).toBe(1);
    const first = await contest.row();
    expect(first).toMatchObject({ holder: leader.holder, term: 1 });
    expect(first.expires - first.acquired).toBeGreaterThanOrEqual(TTL - 1);

    // Renewals move expires_at on, keep the term, and nobody else gets in (polls the real server).
    let row = first;
    while (row.expires < first.expires + 2 * RENEW) {
      await systemClock.timer(RENEW / 4); // real-time-ok: polls the real server until two renewals landed
      row = await contest.row();
    }
    expect(row).toMatchObject({ holder: leader.holder, term: 1, acquired: first.acquired });
    expect(contest.leaders()).toEqual([leader]);
    expect(contest.changes.map((c) => [c.holder, c.role])).toEqual([[leader.holder, 'leader']]);
    expect(contest.overlaps).toEqual([]);
  });

  it('hands over at the next attempt (well under the TTL) when the leader stops cleanly, with term + 1', async () => {
    const contest = await Contest.open();
    for (let i = 0; i < 3; i++) {
      const contender = await contest.add();
      await contender.lease.start();
    }
    const old = await contest.leader();
    const term = old.lease.term();

    const stopping = performance.now();
    const taken = contest.next((c) => c.role === 'leader', TTL, 'a new leader after a clean stop');
    await old.lease.stop();
    expect(old.lease.isLeader()).toBe(false);
    const change = await taken;
    const handover = change.at - stopping;
    console.info(`clean handover: ${ms(handover)} ms (renewals every ${RENEW} ms, TTL ${TTL} ms)`);

    expect(change.holder).not.toBe(old.holder);
    expect(change.term).toBe(term + 1);
    expect(handover).toBeLessThan(TTL);
    const stepDown = contest.changes.find((c) => c.holder === old.holder && c.role === 'follower');
    expect(stepDown).toMatchObject({ term });
    expect(stepDown!.at).toBeLessThanOrEqual(change.at);
    expect(await contest.row()).toMatchObject({ holder: change.holder, term: term + 1 });
    expect(contest.overlaps).toEqual([]);
  });

  it('lets another take over after the TTL when the leader dies without releasing, with a new term', async () => {
    const contest = await Contest.open();
    for (let i = 0; i < 3; i++) {
      const contender = await contest.add();
      await contender.lease.start();
    }
    const old = await contest.leader();
    const term = old.lease.term();

    // Frozen, from the database's side: its connections stay open but nothing more gets through.
    const cut = performance.now();
    old.proxy.cut('blackhole');
    const last = await contest.row(); // its last renewal: nothing of it reaches the server any more
    const change = await contest.next(
      (c) => c.role === 'leader',
      TTL + RENEW + SLACK + RENEW,
      'a takeover after the leader died',
    );
    const takeover = change.at - cut;
    const stepDown = contest.changes.find((c) => c.holder === old.holder && c.role === 'follower');
    console.info(
      `takeover after a silent death: ${ms(takeover)} ms (bound ${TTL + RENEW + SLACK}); the dead leader ` +
        `stepped down after ${stepDown ? ms(stepDown.at - cut) : '—'} ms`,
    );

    expect(change.holder).not.toBe(old.holder);
    expect(change.term).toBe(term + 1);
    expect(takeover).toBeLessThan(TTL + RENEW + SLACK);
    // Not before the dead leader's lease had lapsed, on the database's clock.
    const now = await contest.row();
    expect(now).toMatchObject({ holder: change.holder, term: term + 1 });
    expect(last.holder).toBe(old.holder);
    expect(now.acquired).toBeGreaterThan(last.expires);
    expect(takeover).toBeGreaterThan(TTL - RENEW - SLACK / 2);
    // The cut-off leader had stepped down before that, and before its row lapsed (the server runs on this
    // host's clock, so its expires_at compares with Date.now()).
    expect(stepDown).toMatchObject({ term });
    expect(stepDown!.at).toBeLessThan(change.at);
    expect(stepDown!.wall).toBeLessThan(last.expires);
    expect(old.lease.isLeader()).toBe(false);
    expect(contest.overlaps).toEqual([]);
  });

  it('makes a leader whose database connection fails step down within the TTL', async () => {
    const contest = await Contest.open();
    const leader = await contest.add();
    await leader.lease.start();
    expect(leader.lease.isLeader()).toBe(true);
    const term = leader.lease.term();

    const cut = performance.now();
    leader.proxy.cut('refuse'); // every connection closed, the port refuses new ones
    const change = await contest.next(
      (c) => c.role === 'follower',
      TTL + SLACK,
      'the cut-off leader stepping down',
    );
    const stepDown = change.at - cut;
    console.info(`step-down after the connection failed: ${ms(stepDown)} ms (TTL ${TTL} ms)`);

    expect(change).toMatchObject({ holder: leader.holder, term });
    expect(stepDown).toBeLessThan(TTL);
    expect(leader.lease.isLeader()).toBe(false);
    expect(leader.lease.term()).toBe(term);
    expect(contest.logger.lines.map((l) => l.msg)).toContain(
      'leader lease renewal failed: stepping down unless a renewal succeeds in time',
    );
    // The database still names it until the row lapses: nobody could have taken over before it stepped down.
    // (The server runs on this host's clock, so its expires_at compares with Date.now().)
    const row = await contest.row();
    expect(row.holder).toBe(leader.holder);
    expect(change.wall).toBeLessThan(row.expires);
  });

  it('never has two leaders at once through stops, deaths, cut connections and newcomers', async () => {
    const contest = await Contest.open();
    for (let i = 0; i < 3; i++) {
      const contender = await contest.add();
      await contender.lease.start();
    }
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        contest.sample();
        await systemClock.timer(10); // real-time-ok: samples isLeader() of leases running on real time
      }
    })();

    const terms: number[] = [];
    const handovers: string[] = [];
    for (const ending of ['stop', 'blackhole', 'refuse', 'stop'] as const) {
      const old = await contest.leader();
      terms.push(old.lease.term());
      const started = performance.now();
      const next = contest.next(
        (c) => c.role === 'leader',
        TTL + RENEW + SLACK + RENEW,
        `a leader after ${ending}`,
      );
      if (ending === 'stop') await old.lease.stop();
      else old.proxy.cut(ending);
      const newcomer = await contest.add(); // a newcomer keeps three contenders alive
      await newcomer.lease.start();
      const change = await next;
      handovers.push(`${ending} ${ms(change.at - started)} ms`);
      expect(change.holder).not.toBe(old.holder);
    }
    terms.push((await contest.leader()).lease.term());
    sampling = false;
    await sampler;
    console.info(
      `handovers: ${handovers.join(', ')}; ${contest.samples} samples, terms ${terms.join(' → ')}`,
    );

    expect(contest.overlaps).toEqual([]);
    expect(contest.samples).toBeGreaterThan(50);
    // Each handover starts a new term.
    expect(terms).toEqual([...terms].sort((a, b) => a - b));
    expect(new Set(terms).size).toBe(terms.length);
    // Leader and follower changes alternate per holder, and a new leader only ever follows a step-down.
    let leading: string | undefined;
    for (const change of contest.changes) {
      if (change.role === 'leader') {
        expect(leading, `${change.holder} became leader while ${leading} led`).toBeUndefined();
        leading = change.holder;
      } else {
        expect(change.holder).toBe(leading);
        leading = undefined;
      }
    }
  });

  it('steps down by its own Clock at 80 % of the TTL after its last successful attempt, not before', async () => {
    // The lease's timers run on the Clock port: a TestClock moves them without waiting (the database's expiry,
    // 15 s of real time here, is never reached). Each attempt ends with a debug line, awaited as its event.
    const contest = await Contest.open();
    const clock = new TestClock();
    const outcomes: string[] = [];
    let attempted: (() => void) | undefined;
    const logger: Logger = {
      ...recordingLogger(),
      debug: (obj, msg) => {
        if (msg !== 'leader lease attempt') return;
        outcomes.push((obj as { outcome: string }).outcome);
        attempted?.();
      },
      child: () => logger,
    };
    /** Moves the clock onto the next attempt and waits for it to end. */
    const nextAttempt = async (ms: number) => {
      const done = new Promise<void>((resolve) => {
        attempted = resolve;
      });
      clock.advance(ms);
      await Promise.race([
        done,
        systemClock.timer(5_000).then(() => Promise.reject(new Error('no attempt within 5 s'))),
      ]);
    };
    const ttl = 15_000;
    const c = await contest.add({ clock, ttlMs: ttl, logger });
    const start = clock.now();
    await c.lease.start();
    expect([c.lease.isLeader(), c.lease.term(), outcomes]).toEqual([true, 1, ['held']]);

    await nextAttempt(ttl / 3); // renewed at start + 5 s: leads until start + 5 s + 12 s
    c.proxy.cut('refuse');
    // This attempt runs before the pooled client has seen its connection end: it checks that client out, and
    // the drop must fail the attempt, not crash the process with an unheard 'error' event.
    await nextAttempt(ttl / 3);
    await nextAttempt(ttl / 3);
    expect(outcomes).toEqual(['held', 'held', 'failed', 'failed']);
    clock.advance(start + ttl / 3 + ttl * STEP_DOWN_AT - 1 - clock.now());
    expect(c.lease.isLeader()).toBe(true);
    expect(contest.changes.map((x) => x.role)).toEqual(['leader']);

    const stepDown = contest.next((x) => x.role === 'follower', 5_000, 'the step-down');
    clock.advance(1);
    expect(c.lease.isLeader()).toBe(false); // at once, before the step-down timer's callback has run
    expect(await stepDown).toMatchObject({ holder: c.holder, term: 1 });
  });

  it('refuses a renewal period that leaves no room before the step-down', () => {
    const options = {
      pool: new pg.Pool(),
      name: NAME,
      holder: 'r',
      clock: systemClock,
      logger: recordingLogger(),
    };
    expect(() => new LeaderLease({ ...options, ttlMs: 1000, renewEveryMs: 1000 * STEP_DOWN_AT })).toThrow(
      RangeError,
    );
    expect(
      () => new LeaderLease({ ...options, ttlMs: 1000, attemptTimeoutMs: 1000 * STEP_DOWN_AT + 1 }),
    ).toThrow(RangeError);
    const lease = new LeaderLease({ ...options, ttlMs: 15_000 });
    expect([lease.renewEveryMs, lease.attemptTimeoutMs, lease.isLeader(), lease.term()]).toEqual([
      5000,
      5000,
      false,
      0,
    ]);
  });
});
