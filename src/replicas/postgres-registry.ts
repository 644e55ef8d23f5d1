/**
 * The replica registry on PostgreSQL: one row per replica in `replicas` (migration 4). Every
 * `heartbeatMs` a replica, in one transaction under a table lock, reads the others' rows, decides its share of
 * the rate limits (share-rule.ts) and writes its heartbeat and bound. The lock serializes those decisions, so
 * each sees all earlier ones; a lowered share is applied before it is published, a raised one after.
 *
 * Live: heartbeat within `timeoutMs` (3 × heartbeatMs). Gone: left (clean stop) or silent past the timeout;
 * a gone row still counts for the share until `retainMs` (the longest rate window, plus the transit margin)
 * after it went, since its calls are still in the service's windows; then any replica deletes it.
 *
 * A replica that has not renewed its row for `timeoutMs` (database unreachable, process frozen) takes share 0
 * until it renews: the others count it gone from that moment, so it must have stopped sending by then.
 * Times are epoch ms from the injected clock (see migration 4 for why).
 */
import type pg from 'pg';
import { SPEC_RATE_LIMITS, TRANSIT_MARGIN_MS } from '../api/rate-budget.js';
import type { Clock, Logger } from '../core/ports/index.js';
import type { ReplicaRegistry } from './registry.js';
import { nextShare } from './share-rule.js';

/** The longest window of the service's limits (5 minutes), plus the transit margin the budgets add. */
const LONGEST_WINDOW_MS =
  Math.max(
    SPEC_RATE_LIMITS.key.windowMs,
    ...Object.values(SPEC_RATE_LIMITS.endpoints).map((l) => l.windowMs),
  ) + TRANSIT_MARGIN_MS;

export const REGISTRY_DEFAULTS = {
  heartbeatMs: 2_000,
  /** Three missed heartbeats. */
  timeoutMs: 6_000,
  retainMs: LONGEST_WINDOW_MS,
} as const;

export interface PostgresReplicaRegistryOptions {
  pool: pg.Pool;
  id: string;
  clock: Clock;
  logger: Logger;
  /** This replica's largest use of any limit in its current window (`RateBudgetRegistry.peakUse`). */
  peakUse(): number;
  heartbeatMs?: number;
  /** Default 3 × heartbeatMs. */
  timeoutMs?: number;
  /** How long a gone replica still counts (default: the longest rate window + the transit margin). */
  retainMs?: number;
  /** Run after leaving (closes a pool the registry owns). */
  onStop?: () => Promise<void> | void;
}

interface Row {
  id: string;
  heartbeat_at: number;
  left_at: number | null;
  bound: number;
}

export class PostgresReplicaRegistry implements ReplicaRegistry {
  readonly id: string;
  readonly #o: PostgresReplicaRegistryOptions;
  readonly #heartbeatMs: number;
  readonly #timeoutMs: number;
  readonly #retainMs: number;
  readonly #listeners = new Set<() => void>();
  readonly #stopping = new AbortController();
  #share = 0;
  #live = 1;
  /** When the last committed heartbeat started (the heartbeat_at it wrote); -∞ before the first. */
  #beatAt = Number.NEGATIVE_INFINITY;
  #beating: Promise<void> | undefined;
  #loop: Promise<void> | undefined;

  constructor(options: PostgresReplicaRegistryOptions) {
    this.#o = options;
    this.id = options.id;
    this.#heartbeatMs = options.heartbeatMs ?? REGISTRY_DEFAULTS.heartbeatMs;
    this.#timeoutMs = options.timeoutMs ?? 3 * this.#heartbeatMs;
    this.#retainMs = options.retainMs ?? REGISTRY_DEFAULTS.retainMs;
  }

  liveCount(): number {
    return this.#live;
  }

  share(): number {
    if (this.#stopping.signal.aborted) return 0;
    return this.#o.clock.now() - this.#beatAt < this.#timeoutMs ? this.#share : 0;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async start(): Promise<void> {
    await this.tick();
    this.#loop = this.#run();
  }

  tick(): Promise<void> {
    if (this.#stopping.signal.aborted) return Promise.resolve();
    // Heartbeats never overlap: a second caller waits for the one in flight.
    this.#beating ??= this.#beat().finally(() => {
      this.#beating = undefined;
    });
    return this.#beating;
  }

  async stop(): Promise<void> {
    if (this.#stopping.signal.aborted) return;
    this.#stopping.abort();
    this.#notify();
    await this.#loop;
    await this.#beating?.catch(() => {});
    try {
      // Share 0 from here: what this replica sent is all in its windows. None: the row can go at once.
      const peak = this.#o.peakUse();
      if (peak > 0) {
        await this.#o.pool.query('UPDATE replicas SET left_at = $2, bound = $3 WHERE id = $1', [
          this.id,
          this.#o.clock.now(),
          peak,
        ]);
      } else {
        await this.#o.pool.query('DELETE FROM replicas WHERE id = $1', [this.id]);
      }
    } catch (error) {
      // The others count it gone after the timeout instead, with its last bound.
      this.#o.logger.warn({ err: error, replica: this.id }, 'replica registry: could not leave the table');
    } finally {
      await this.#o.onStop?.();
    }
  }

  async #run(): Promise<void> {
    const signal = this.#stopping.signal;
    while (!signal.aborted) {
      try {
        await this.#o.clock.timer(this.#heartbeatMs, signal);
      } catch {
        return;
      }
      try {
        await this.tick();
      } catch (error) {
        this.#o.logger.warn({ err: error, replica: this.id }, 'replica registry: heartbeat failed');
      }
    }
  }

  async #beat(): Promise<void> {
    const now = this.#o.clock.now();
    const client = await this.#o.pool.connect();
    // A checked-out client whose session ends (the server's idle-in-transaction timeout after this replica was
    // paused, a dropped connection) emits 'error' besides failing its query: unheard, that would crash the
    // process. The query in flight fails too, so the heartbeat hears of it.
    const onError = (error: Error) =>
      this.#o.logger.warn(
        { err: error, replica: this.id },
        'replica registry: connection lost mid-heartbeat',
      );
    client.on('error', onError);
    let broken: unknown;
    try {
      await client.query('BEGIN');
      // Serializes heartbeats (readers and writers of the table): each decision sees every earlier one.
      await client.query('LOCK TABLE replicas IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<Row>(
        'SELECT id, heartbeat_at, left_at, bound FROM replicas WHERE id <> $1',
        [this.id],
      );
      let live = 1;
      let count = 1;
      let othersBound = 0;
      for (const row of rows) {
        const isLive = row.left_at === null && row.heartbeat_at + this.#timeoutMs > now;
        const goneAt = row.left_at ?? row.heartbeat_at + this.#timeoutMs;
        if (!isLive && goneAt + this.#retainMs <= now) continue;
        if (isLive) live++;
        count++;
        othersBound += row.bound;
      }
      const current = this.share();
      const next = nextShare({ current, count, othersBound });
      // Lowered before the lowered bound can be read by anyone; raised only once published (after COMMIT).
      if (next < current) this.#share = next;
      const bound = Math.max(this.#o.peakUse(), next);
      await client.query(
        `INSERT INTO replicas (id, started_at, heartbeat_at, left_at, bound) VALUES ($1, $2, $2, NULL, $3)
         ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at, left_at = NULL, bound = EXCLUDED.bound`,
        [this.id, now, bound],
      );
      await client.query(
        'DELETE FROM replicas WHERE id <> $1 AND coalesce(left_at, heartbeat_at + $2) + $3 <= $4',
        [this.id, this.#timeoutMs, this.#retainMs, now],
      );
      await client.query('COMMIT');
      const changed = next !== current || live !== this.#live;
      this.#share = next;
      this.#live = live;
      this.#beatAt = now;
      if (changed) this.#notify();
    } catch (error) {
      broken = error;
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  #notify(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#o.logger.warn({ err: error }, 'replica registry: a change listener failed');
      }
    }
  }
}
