/**
 * A leader lease on PostgreSQL: of the replicas contending for one name ('discord-gateway'), exactly
 * one holds it at a time; the others take over within `ttlMs + renewEveryMs` when it dies, and at their next
 * attempt (≤ `renewEveryMs`) when it stops cleanly (stop() releases it).
 *
 * One row per name in `leases` (migration 2). Every `renewEveryMs` each contender runs ONE statement, an
 * INSERT … ON CONFLICT DO UPDATE whose WHERE lets it through only when it already holds the row or the row has
 * expired: PostgreSQL's row lock on the conflicting row serialises contenders, so there is no read-then-write
 * race and a lease is granted to one of them. RETURNING gives the holder its term; a refused contender gets no row.
 *
 * Time. Expiry uses the database's clock only: `expires_at = now() + ttl`, and a lease lapses when
 * `expires_at < now()` on the server. Replicas' clocks may disagree by seconds (a container without NTP);
 * one clock for every comparison means a skewed replica can neither steal a live lease nor keep a lapsed one.
 * `now()` is the start of the statement's transaction, at or after the moment the replica sent it.
 *
 * Fencing. A holder believes it leads only until `start of its last successful attempt + 80 % of the TTL`
 * (measured by its own Clock, a duration, so skew does not matter). That start precedes the server's `now()`
 * of the same statement, so the holder steps down (onChange('follower')) at least 20 % of the TTL before the
 * database lets anyone else in: a holder whose renewals fail (connection refused, or hanging: each attempt is
 * abandoned after `attemptTimeoutMs`) never overlaps the next one. `isLeader()` also checks the deadline
 * itself, so it turns false on time even if the step-down timer fires late on a busy event loop (and that
 * timer, monotonic, still fires if the wall clock behind Clock.now() is stepped back). What neither covers is a
 * process frozen longer than the TTL mid-action (a stopped VM): code acting as leader checks `isLeader()`
 * again before each act, and may carry `term()` as a fencing token (it grows with every new tenure, so a
 * write stamped with an older term can be refused).
 *
 * The term grows by one whenever the lease starts a new tenure in the database: another holder takes it, or
 * anyone takes it after it was released or lapsed. A holder that stepped down locally (renewals failing) and
 * renews before the row lapses keeps its term: nobody else held it in between.
 *
 * `holder` identifies one running process (e.g. `<hostname>:<pid>:<random>`): two processes with the same
 * holder would both believe they lead. The pool is the caller's: give it an 'error' listener (an idle client
 * whose connection drops emits one) and keep `max` above one so a hung connection cannot starve it.
 */
import type pg from 'pg';
import type { Clock, Logger } from '../../core/ports/index.js';

export type LeaseRole = 'leader' | 'follower';

export interface LeaderLeaseOptions {
  pool: pg.Pool;
  /** The lease's name, one per singleton job: 'discord-gateway'. */
  name: string;
  /** This process, unique among the contenders (see the file comment). */
  holder: string;
  /** How long a granted lease lasts without renewal, on the database's clock. Default 15 s. */
  ttlMs?: number;
  /** How often the holder renews and followers try to take over. Default ttlMs / 3. */
  renewEveryMs?: number;
  /**
   * An attempt (a connection and the statement) not done by then counts as failed and its connection is
   * destroyed. Default renewEveryMs, so a hung connection is replaced in time for another try; at most 80 % of
   * ttlMs. Attempts never overlap: the next starts renewEveryMs after the last started, or when it ended.
   */
  attemptTimeoutMs?: number;
  clock: Clock;
  logger: Logger;
  /** Called on each change of role, with the term held (leader) or the term just given up (follower). */
  onChange?: (role: LeaseRole, term: number) => void;
}

/** The holder steps down this fraction of the TTL after its last successful attempt started. */
export const STEP_DOWN_AT = 0.8;

const ACQUIRE = `
  INSERT INTO leases AS l (name, holder, term, expires_at, acquired_at)
  VALUES ($1, $2, 1, now() + $3::float8 * interval '1 millisecond', now())
  ON CONFLICT (name) DO UPDATE SET
    holder = excluded.holder,
    expires_at = excluded.expires_at,
    term = CASE WHEN l.holder = excluded.holder AND l.expires_at >= now() THEN l.term ELSE l.term + 1 END,
    acquired_at = CASE WHEN l.holder = excluded.holder AND l.expires_at >= now() THEN l.acquired_at
                       ELSE now() END
  WHERE l.holder = excluded.holder OR l.expires_at < now()
  RETURNING term::float8 AS term`;

/** Keeps the row (and its term); '-infinity' has lapsed for everyone at once. */
const RELEASE = `UPDATE leases SET holder = NULL, expires_at = '-infinity' WHERE name = $1 AND holder = $2`;

class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout';
}

export class LeaderLease {
  readonly name: string;
  readonly holder: string;
  readonly ttlMs: number;
  readonly renewEveryMs: number;
  readonly attemptTimeoutMs: number;
  readonly #pool: pg.Pool;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #onChange: (role: LeaseRole, term: number) => void;

  #leader = false;
  #term = 0;
  /** Clock time until which this holder may act as leader. */
  #deadline = 0;
  /** Aborts the pending step-down timer (re-armed on each renewal). */
  #stepDownTimer: AbortController | undefined;
  #loop: { stop: AbortController; done: Promise<void> } | undefined;
  #failing = false;

  constructor(options: LeaderLeaseOptions) {
    this.#pool = options.pool;
    this.name = options.name;
    this.holder = options.holder;
    this.ttlMs = options.ttlMs ?? 15_000;
    this.renewEveryMs = options.renewEveryMs ?? this.ttlMs / 3;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? this.renewEveryMs;
    if (!(this.renewEveryMs > 0 && this.renewEveryMs < this.ttlMs * STEP_DOWN_AT)) {
      throw new RangeError(
        `renewEveryMs (${this.renewEveryMs}) must be above 0 and below ${STEP_DOWN_AT * 100} % of ttlMs (${this.ttlMs})`,
      );
    }
    if (!(this.attemptTimeoutMs > 0 && this.attemptTimeoutMs <= this.ttlMs * STEP_DOWN_AT)) {
      throw new RangeError(
        `attemptTimeoutMs (${this.attemptTimeoutMs}) must be above 0 and at most ${STEP_DOWN_AT * 100} % of ttlMs (${this.ttlMs})`,
      );
    }
    this.#clock = options.clock;
    this.#logger = options.logger.child({ lease: options.name, holder: options.holder });
    this.#onChange = options.onChange ?? (() => {});
  }

  /** Whether this process holds the lease now (false once its deadline passed, even before onChange). */
  isLeader(): boolean {
    return this.#leader && this.#clock.now() < this.#deadline;
  }

  /** The term of the current or last tenure this process held; 0 if it never led. */
  term(): number {
    return this.#term;
  }

  /** Starts contending; resolves after the first attempt (so isLeader() tells its outcome). */
  async start(): Promise<void> {
    if (this.#loop) return;
    const stop = new AbortController();
    const started = this.#clock.now();
    const first = this.#attempt(started);
    this.#loop = { stop, done: first.then(() => this.#run(stop.signal, started)) };
    await first;
  }

  /**
   * Stops contending: waits for an attempt in flight, steps down if leading, and releases the row so another
   * replica takes over at its next attempt instead of after the TTL. A failed release is logged, not thrown.
   */
  async stop(): Promise<void> {
    const loop = this.#loop;
    if (!loop) return;
    loop.stop.abort();
    await loop.done;
    this.#stepDown('stopped');
    try {
      await this.#withTimeout((client) => client.query(RELEASE, [this.name, this.holder]));
    } catch (error) {
      this.#logger.warn(
        { err: error },
        'leader lease not released: another replica takes over when it expires',
      );
    }
    this.#loop = undefined;
  }

  /** An attempt renewEveryMs after the start of the last one, or at once if that one took longer. */
  async #run(signal: AbortSignal, lastStarted: number): Promise<void> {
    let started = lastStarted;
    for (;;) {
      try {
        await this.#clock.timer(Math.max(0, started + this.renewEveryMs - this.#clock.now()), signal);
      } catch {
        return;
      }
      started = this.#clock.now();
      await this.#attempt(started);
    }
  }

  /** One attempt to take or renew the lease, logged at debug level with its outcome. */
  async #attempt(started: number): Promise<void> {
    const outcome = await this.#tryOnce(started);
    this.#logger.debug({ outcome, leader: this.#leader, term: this.#term }, 'leader lease attempt');
  }

  async #tryOnce(started: number): Promise<'held' | 'refused' | 'failed' | 'late'> {
    let term: number | undefined;
    try {
      const result = await this.#withTimeout((client) =>
        client.query<{ term: number }>(ACQUIRE, [this.name, this.holder, this.ttlMs]),
      );
      term = result.rows[0]?.term;
    } catch (error) {
      if (!this.#failing) {
        this.#failing = true;
        this.#logger.warn(
          { err: error, leader: this.#leader },
          this.#leader
            ? 'leader lease renewal failed: stepping down unless a renewal succeeds in time'
            : 'leader lease attempt failed',
        );
      }
      return 'failed';
    }
    if (this.#failing) {
      this.#failing = false;
      this.#logger.info({}, 'leader lease attempts succeed again');
    }
    const deadline = started + this.ttlMs * STEP_DOWN_AT;
    if (term === undefined) {
      // Another replica holds it (it took over while this one could not renew, or never let go).
      this.#stepDown('held by another replica');
      return 'refused';
    }
    if (this.#clock.now() >= deadline) {
      // The answer came too late to act on (a stalled event loop): the next attempt decides.
      this.#stepDown('renewal answered after its deadline');
      return 'late';
    }
    if (this.#leader && term !== this.#term) this.#stepDown('new term');
    this.#deadline = deadline;
    this.#armStepDown(deadline);
    if (!this.#leader) {
      this.#leader = true;
      this.#term = term;
      this.#logger.info({ term }, 'leader lease acquired');
      this.#onChange('leader', term);
    }
    return 'held';
  }

  #armStepDown(deadline: number): void {
    this.#stepDownTimer?.abort();
    const timer = new AbortController();
    this.#stepDownTimer = timer;
    this.#clock.timer(deadline - this.#clock.now(), timer.signal).then(
      () => {
        if (this.#stepDownTimer === timer) this.#stepDown('not renewed in time');
      },
      () => {},
    );
  }

  #stepDown(reason: string): void {
    this.#stepDownTimer?.abort();
    this.#stepDownTimer = undefined;
    if (!this.#leader) return;
    this.#leader = false;
    this.#deadline = 0;
    this.#logger.info({ term: this.#term, reason }, 'leader lease given up');
    this.#onChange('follower', this.#term);
  }

  /**
   * Runs one query on a client of its own, given up after attemptTimeoutMs: a client whose query failed or hung
   * is destroyed (it must not go back to the pool), and a late answer is ignored. A connection that opens only
   * after the timeout goes back to the pool for the next attempt: on a slow server, opening one may take
   * longer than an attempt, and discarding it would fail every attempt after it.
   */
  async #withTimeout<T>(query: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const expired = new AbortController();
    let client: pg.PoolClient | undefined;
    let timedOut = false;
    // A checked-out client whose connection drops emits 'error' besides failing its query (the pool listens
    // only to idle ones): unheard, that would crash the process. The pool's listener is back once released.
    const onError = (error: Error) => this.#logger.debug({ err: error }, 'leader lease connection lost');
    const giveBack = (error?: Error) => {
      const held = client;
      client = undefined;
      held?.release(error);
      held?.off('error', onError);
    };
    const work = (async () => {
      const connected = await this.#pool.connect();
      if (timedOut) {
        connected.release();
        throw new AttemptTimeout('connected after the attempt timed out');
      }
      client = connected;
      connected.on('error', onError);
      return await query(connected);
    })();
    const deadline = this.#clock.timer(this.attemptTimeoutMs, expired.signal).then(
      () => {
        timedOut = true;
        throw new AttemptTimeout(`no answer from PostgreSQL within ${this.attemptTimeoutMs} ms`);
      },
      () => new Promise<never>(() => {}),
    );
    work.catch(() => {});
    try {
      return await Promise.race([work, deadline]);
    } catch (error) {
      giveBack(error instanceof Error ? error : new Error(String(error)));
      throw error;
    } finally {
      expired.abort();
      giveBack();
    }
  }
}
