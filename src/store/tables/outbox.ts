/**
 * The outbox (DESIGN §4): chat deliveries committed with the state change that caused them. A delivered row
 * keeps only its dedupe key (item NULL) so re-enqueueing the same state change stays a no-op, until pruned.
 * The dedupe key is unique in the database, so a retried enqueue from any replica never doubles a delivery.
 */
import type { ChatPlatform, Clock, OutboxItem, OutboxOp, Store } from '../../core/ports/index.js';
import { queriedJson, readJson, type Sql, withoutNul } from '../sql.js';
import { PeriodicPrune } from './periodic-prune.js';

type OutboxStore = Store['outbox'];

interface OutboxRow {
  id: number;
  platform: ChatPlatform;
  dedupe_key: string;
  item: unknown;
  attempts: number;
  not_before: number;
  created_at: number;
}

/** Any claim when `token` is NULL (a row no sender took: a card that never came), else that one only. */
const CLAIMED_BY = (token: string) => `(${token}::integer IS NULL OR claim_token = ${token})`;

/** How long a delivered row remembers its dedupe key; far beyond any retry or re-poll of one state change. */
export const DELIVERED_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export class Outbox implements OutboxStore {
  /** Delivered rows past their retention; failed rows are kept for inspection. */
  readonly #prune = new PeriodicPrune(PRUNE_EVERY_MS, (now) =>
    this.sql.count("DELETE FROM outbox WHERE status = 'delivered' AND finished_at < $1", [
      now - DELIVERED_RETENTION_MS,
    ]),
  );

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async enqueue(platform: ChatPlatform, item: OutboxOp, dedupeKey: string): Promise<boolean> {
    const now = this.clock.now();
    // Ready now by the clock claims are timed by (the database's, on PostgreSQL): a row a replica with a fast
    // clock enqueues is not held back by its clock's lead.
    const added = await this.sql.count(
      `INSERT INTO outbox (platform, dedupe_key, item, not_before, created_at)
       VALUES ($1, $2, $3, ${this.sql.leaseNow('$4')}, $4)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [platform, dedupeKey, queriedJson(item), now],
    );
    return added === 1;
  }

  async ready(platform: ChatPlatform, now: number, limit: number): Promise<OutboxItem[]> {
    // Served by the partial index outbox_pending (platform, id): pending rows in enqueue order.
    const rows = await this.sql.rows<OutboxRow>(
      `SELECT id, platform, dedupe_key, item, attempts, not_before, created_at FROM outbox
       WHERE platform = $1 AND status = 'pending' AND not_before <= ${this.sql.leaseNow('$3')}
       ORDER BY id LIMIT $2`,
      [platform, limit, now],
    );
    return rows.map(fromRow);
  }

  async claim(id: number, now: number, leaseMs: number): Promise<number | undefined> {
    // One statement: a racing claim waits for this row's lock (SQLite: the database's write lock, across
    // connections and processes), then finds not_before moved and changes nothing. Timed by the database's
    // clock on PostgreSQL, so a replica whose clock runs ahead never takes a row another is still sending.
    const at = this.sql.leaseNow('$3');
    const row = await this.sql.row<{ claim_token: number }>(
      `UPDATE outbox SET not_before = ${at} + $1, claim_token = claim_token + 1
       WHERE id = $2 AND status = 'pending' AND not_before <= ${at}
       RETURNING claim_token`,
      [leaseMs, id, now],
    );
    return row?.claim_token;
  }

  async done(id: number, claim?: number): Promise<boolean> {
    const now = this.clock.now();
    const done = await this.sql.count(
      `UPDATE outbox SET status = 'delivered', item = NULL, finished_at = $1
       WHERE id = $2 AND status = 'pending' AND ${CLAIMED_BY('$3')}`,
      [now, id, claim ?? null],
    );
    await this.#prune.due(now);
    return done === 1;
  }

  async retry(id: number, notBefore: number, claim?: number): Promise<void> {
    await this.sql.count(
      `UPDATE outbox SET attempts = attempts + 1, not_before = ${this.#fromNow('$1')}
       WHERE id = $2 AND status = 'pending' AND ${CLAIMED_BY('$3')}`,
      [notBefore - this.clock.now(), id, claim ?? null, this.clock.now()],
    );
  }

  async postpone(id: number, notBefore: number, claim?: number): Promise<void> {
    await this.sql.count(
      `UPDATE outbox SET not_before = ${this.#fromNow('$1')}
       WHERE id = $2 AND status = 'pending' AND ${CLAIMED_BY('$3')}`,
      [notBefore - this.clock.now(), id, claim ?? null, this.clock.now()],
    );
  }

  async fail(id: number, error: string, claim?: number): Promise<void> {
    await this.sql.count(
      `UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = $1, finished_at = $2
       WHERE id = $3 AND status = 'pending' AND ${CLAIMED_BY('$4')}`,
      [withoutNul(error), this.clock.now(), id, claim ?? null],
    );
  }

  /**
   * `not_before` `$delay` ms after now by the claims' clock: a delay the caller computed on its own clock
   * keeps its length whatever that clock's offset (`$4` is the caller's now, used where there is no other).
   */
  #fromNow(delay: string): string {
    return `${this.sql.leaseNow('$4')} + ${delay}::double precision`;
  }

  async failWaitingOn(cardKey: string, error: string): Promise<number> {
    // Pending rows are few (delivered ones keep no item), so reading their JSON is cheap.
    return await this.sql.count(
      `UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = $1, finished_at = $2
       WHERE status = 'pending' AND (
         (item ->> 'op' = 'update-card' AND item ->> 'cardKey' = $3) OR item ->> 'threadOfCard' = $3)`,
      [withoutNul(error), this.clock.now(), cardKey],
    );
  }

  async depth(platform?: ChatPlatform): Promise<number> {
    const row =
      platform === undefined
        ? await this.sql.row<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE status = 'pending'")
        : await this.sql.row<{ n: number }>(
            "SELECT count(*) AS n FROM outbox WHERE status = 'pending' AND platform = $1",
            [platform],
          );
    return row?.n ?? 0;
  }
}

function fromRow(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    platform: row.platform,
    // Written only by enqueue(), from an OutboxOp; pending rows always carry it.
    item: readJson<OutboxOp>(row.item),
    dedupeKey: row.dedupe_key,
    attempts: row.attempts,
    notBefore: row.not_before,
    createdAt: row.created_at,
  };
}
