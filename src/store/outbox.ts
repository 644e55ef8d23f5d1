/**
 * The outbox (DESIGN §4): chat deliveries committed with the state change that caused them. A delivered row
 * keeps only its dedupe key (item NULL) so re-enqueueing the same state change stays a no-op, until pruned.
 */
import type Database from 'better-sqlite3';
import type { ChatPlatform, Clock, OutboxItem, OutboxOp, Store } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type OutboxStore = Synchronous<Store['outbox']>;

interface OutboxRow {
  id: number;
  platform: ChatPlatform;
  dedupe_key: string;
  item: string;
  attempts: number;
  not_before: number;
  created_at: number;
}

/** How long a delivered row remembers its dedupe key; far beyond any retry or re-poll of one state change. */
export const DELIVERED_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export class SqliteOutbox implements OutboxStore {
  readonly #insert: Database.Statement<[Omit<OutboxRow, 'id' | 'attempts'>]>;
  readonly #ready: Database.Statement<[ChatPlatform, number, number], OutboxRow>;
  readonly #claim: Database.Statement<[number, number, number]>;
  readonly #done: Database.Statement<[number, number]>;
  readonly #retry: Database.Statement<[number, number]>;
  readonly #postpone: Database.Statement<[number, number]>;
  readonly #fail: Database.Statement<[string, number, number]>;
  readonly #failWaitingOn: Database.Statement<[string, number, string, string]>;
  readonly #depth: Database.Statement<[], { n: number }>;
  readonly #depthOf: Database.Statement<[ChatPlatform], { n: number }>;
  readonly #prune: Database.Statement<[number]>;
  #lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#insert = db.prepare(
      `INSERT INTO outbox (platform, dedupe_key, item, not_before, created_at)
       VALUES (@platform, @dedupe_key, @item, @not_before, @created_at)
       ON CONFLICT (dedupe_key) DO NOTHING`,
    );
    // Served by the partial index outbox_pending (platform, id): pending rows in enqueue order.
    this.#ready = db.prepare(
      `SELECT id, platform, dedupe_key, item, attempts, not_before, created_at FROM outbox
       WHERE platform = ? AND status = 'pending' AND not_before <= ? ORDER BY id LIMIT ?`,
    );
    // One statement, so SQLite's write lock makes it atomic across connections and processes.
    this.#claim = db.prepare(
      "UPDATE outbox SET not_before = ? WHERE id = ? AND status = 'pending' AND not_before <= ?",
    );
    this.#done = db.prepare(
      "UPDATE outbox SET status = 'delivered', item = NULL, finished_at = ? WHERE id = ? AND status = 'pending'",
    );
    this.#retry = db.prepare(
      "UPDATE outbox SET attempts = attempts + 1, not_before = ? WHERE id = ? AND status = 'pending'",
    );
    this.#postpone = db.prepare("UPDATE outbox SET not_before = ? WHERE id = ? AND status = 'pending'");
    this.#fail = db.prepare(
      `UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = ?, finished_at = ?
       WHERE id = ? AND status = 'pending'`,
    );
    // Pending rows are few (delivered ones keep no item), so reading their JSON is cheap.
    this.#failWaitingOn = db.prepare(
      `UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = ?, finished_at = ?
       WHERE status = 'pending' AND (
         (json_extract(item, '$.op') = 'update-card' AND json_extract(item, '$.cardKey') = ?)
         OR json_extract(item, '$.threadOfCard') = ?)`,
    );
    this.#depth = db.prepare("SELECT count(*) AS n FROM outbox WHERE status = 'pending'");
    this.#depthOf = db.prepare("SELECT count(*) AS n FROM outbox WHERE status = 'pending' AND platform = ?");
    this.#prune = db.prepare("DELETE FROM outbox WHERE status = 'delivered' AND finished_at < ?");
  }

  enqueue(platform: ChatPlatform, item: OutboxOp, dedupeKey: string): boolean {
    const now = this.clock.now();
    const row = {
      platform,
      dedupe_key: dedupeKey,
      item: JSON.stringify(item),
      not_before: now,
      created_at: now,
    };
    return this.#insert.run(row).changes === 1;
  }

  ready(platform: ChatPlatform, now: number, limit: number): OutboxItem[] {
    return this.#ready.all(platform, now, limit).map(fromRow);
  }

  claim(id: number, now: number, leaseMs: number): boolean {
    return this.#claim.run(now + leaseMs, id, now).changes === 1;
  }

  done(id: number): void {
    const now = this.clock.now();
    this.#done.run(now, id);
    this.#pruneDelivered(now);
  }

  retry(id: number, notBefore: number): void {
    this.#retry.run(notBefore, id);
  }

  postpone(id: number, notBefore: number): void {
    this.#postpone.run(notBefore, id);
  }

  fail(id: number, error: string): void {
    this.#fail.run(error, this.clock.now(), id);
  }

  failWaitingOn(cardKey: string, error: string): number {
    return this.#failWaitingOn.run(error, this.clock.now(), cardKey, cardKey).changes;
  }

  depth(platform?: ChatPlatform): number {
    return (platform === undefined ? this.#depth.get() : this.#depthOf.get(platform))?.n ?? 0;
  }

  /** At most once an hour, piggybacked on `done`. Failed rows are kept for inspection. */
  #pruneDelivered(now: number): void {
    if (now - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now;
    this.#prune.run(now - DELIVERED_RETENTION_MS);
  }
}

function fromRow(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    platform: row.platform,
    // Written only by enqueue(), from an OutboxOp; pending rows always carry it.
    item: JSON.parse(row.item) as OutboxOp,
    dedupeKey: row.dedupe_key,
    attempts: row.attempts,
    notBefore: row.not_before,
    createdAt: row.created_at,
  };
}
