/**
 * One idempotency key per logical user action (DESIGN §6), stored before the request so retries and restarts
 * reuse it. Kept well past the API's 24 h replay window, then pruned.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Clock, Store } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type IdempotencyStore = Synchronous<Store['idempotency']>;

export const IDEMPOTENCY_RETENTION_MS = 48 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export class SqliteIdempotency implements IdempotencyStore {
  readonly #insert: Database.Statement<[string, string, number]>;
  readonly #insertOrRenew: Database.Statement<[string, string, number, number]>;
  readonly #select: Database.Statement<[string], { key: string }>;
  readonly #storedAt: Database.Statement<[string], { created_at: number }>;
  readonly #prune: Database.Statement<[number]>;
  #lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#insert = db.prepare(
      'INSERT INTO idempotency_keys (action, key, created_at) VALUES (?, ?, ?) ON CONFLICT (action) DO NOTHING',
    );
    // One statement, so two racing requests still agree on the key: only a row older than the window is renewed.
    this.#insertOrRenew = db.prepare(
      `INSERT INTO idempotency_keys (action, key, created_at) VALUES (?, ?, ?)
       ON CONFLICT (action) DO UPDATE SET key = excluded.key, created_at = excluded.created_at
       WHERE idempotency_keys.created_at <= ?`,
    );
    this.#select = db.prepare('SELECT key FROM idempotency_keys WHERE action = ?');
    this.#storedAt = db.prepare('SELECT created_at FROM idempotency_keys WHERE action = ?');
    this.#prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  }

  keyFor(action: string, options: { reuseForMs?: number } = {}): string {
    const now = this.clock.now();
    this.#pruneOld(now);
    // Insert-if-absent (or renew-if-stale) then read: the first key stored for the action wins.
    if (options.reuseForMs === undefined) this.#insert.run(action, randomUUID(), now);
    else this.#insertOrRenew.run(action, randomUUID(), now, now - options.reuseForMs);
    return this.#select.get(action)!.key;
  }

  storedAt(action: string): number | undefined {
    return this.#storedAt.get(action)?.created_at;
  }

  /** At most once an hour, piggybacked on `keyFor`. */
  #pruneOld(now: number): void {
    if (now - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now;
    this.#prune.run(now - IDEMPOTENCY_RETENTION_MS);
  }
}
