/**
 * One idempotency key per logical user action (DESIGN §6), stored before the request so retries and restarts
 * reuse it. Kept well past the API's 24 h replay window, then pruned.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, Store } from '../../core/ports/index.js';
import type { Sql } from '../sql.js';
import { PeriodicPrune } from './periodic-prune.js';

type IdempotencyStore = Store['idempotency'];

export const IDEMPOTENCY_RETENTION_MS = 48 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export class Idempotency implements IdempotencyStore {
  /** At most once an hour, piggybacked on `keyFor`. */
  readonly #prune = new PeriodicPrune(PRUNE_EVERY_MS, (now) =>
    this.sql.count('DELETE FROM idempotency_keys WHERE created_at < $1', [now - IDEMPOTENCY_RETENTION_MS]),
  );

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async keyFor(action: string, options: { reuseForMs?: number } = {}): Promise<string> {
    const now = this.clock.now();
    await this.#prune.due(now);
    // Insert-if-absent (or renew-if-stale), then read in a statement of its own: the first key stored for the
    // action wins. On PostgreSQL a racing insert that won the conflict committed before this one went on, and
    // only a later statement's snapshot sees its key.
    if (options.reuseForMs === undefined) {
      await this.sql.count(
        `INSERT INTO idempotency_keys (action, key, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (action) DO NOTHING`,
        [action, randomUUID(), now],
      );
    } else {
      // One statement, so two racing requests still agree on the key: only a row older than the window is renewed.
      await this.sql.count(
        `INSERT INTO idempotency_keys AS k (action, key, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (action) DO UPDATE SET key = excluded.key, created_at = excluded.created_at
         WHERE k.created_at <= $4`,
        [action, randomUUID(), now, now - options.reuseForMs],
      );
    }
    const row = await this.sql.row<{ key: string }>('SELECT key FROM idempotency_keys WHERE action = $1', [
      action,
    ]);
    return row!.key;
  }

  async storedAt(action: string): Promise<number | undefined> {
    const row = await this.sql.row<{ created_at: string | number }>(
      'SELECT created_at FROM idempotency_keys WHERE action = $1',
      [action],
    );
    return row === undefined ? undefined : Number(row.created_at);
  }
}
