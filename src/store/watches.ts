/** Durable watches for the poller: they survive restarts and are picked by `due` through (status, next_check_at). */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Clock, NewWatch, Store, Watch, WatchFilter, WatchKind } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type WatchStore = Synchronous<Store['watches']>;

interface WatchRow {
  id: string;
  kind: WatchKind;
  target: string;
  owner: string;
  conversation: string;
  card_key: string | null;
  state: string;
  next_check_at: number;
  created_at: number;
  expires_at: number;
  status: Watch['status'];
}

/** One statement for every patch shape: a NULL parameter means "leave the column as it is". */
interface PatchParams {
  id: string;
  state: string | null;
  next_check_at: number | null;
  status: Watch['status'] | null;
  set_card_key: 0 | 1;
  card_key: string | null;
}

/** `activeWhere` fields and their columns (each lookup is served by an index starting with one of them). */
export const WATCH_FILTER_COLUMNS: Record<keyof WatchFilter, string> = {
  kind: 'kind',
  target: 'target',
  owner: 'owner',
  conversation: 'conversation',
  cardKey: 'card_key',
};

/** Finished watches are kept this long after they would have expired, then pruned. */
export const FINISHED_RETENTION_MS = 30 * 24 * 3600_000;
export const PRUNE_EVERY_MS = 3600_000;

export class SqliteWatches implements WatchStore {
  readonly #insert: Database.Statement<[WatchRow]>;
  readonly #get: Database.Statement<[string], WatchRow>;
  readonly #due: Database.Statement<[{ now: number; limit: number; holder: string | null }], WatchRow>;
  readonly #active: Database.Statement<[], WatchRow>;
  readonly #findActive: Database.Statement<[string, string], WatchRow>;
  readonly #findActiveIn: Database.Statement<[string, string, string], WatchRow>;
  readonly #update: Database.Statement<[PatchParams]>;
  readonly #claim: Database.Statement<[{ id: string; holder: string; now: number; until: number }], WatchRow>;
  readonly #release: Database.Statement<[string, string]>;
  readonly #prune: Database.Statement<[number]>;
  #lastPrune = Number.NEGATIVE_INFINITY;
  readonly #db: Database.Database;
  /** Prepared `activeWhere` statements, one per combination of fields. */
  readonly #where = new Map<string, Database.Statement<unknown[], WatchRow>>();

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO watches (id, kind, target, owner, conversation, card_key, state, next_check_at, created_at,
         expires_at, status)
       VALUES (@id, @kind, @target, @owner, @conversation, @card_key, @state, @next_check_at, @created_at,
         @expires_at, @status)`,
    );
    this.#get = db.prepare('SELECT * FROM watches WHERE id = ?');
    this.#due = db.prepare(
      `SELECT * FROM watches WHERE status = 'active' AND next_check_at <= @now
         AND (lease_until IS NULL OR lease_until <= @now OR lease_holder = @holder)
       ORDER BY next_check_at, created_at LIMIT @limit`,
    );
    this.#active = db.prepare("SELECT * FROM watches WHERE status = 'active' ORDER BY next_check_at");
    this.#findActive = db.prepare(
      "SELECT * FROM watches WHERE kind = ? AND target = ? AND status = 'active' ORDER BY created_at LIMIT 1",
    );
    // Served by watches_target (kind, target, status): a target has a handful of rows, one per conversation.
    this.#findActiveIn = db.prepare(
      `SELECT * FROM watches WHERE kind = ? AND target = ? AND status = 'active' AND conversation = ?
       ORDER BY created_at LIMIT 1`,
    );
    this.#update = db.prepare(
      `UPDATE watches SET
         state = coalesce(@state, state),
         next_check_at = coalesce(@next_check_at, next_check_at),
         status = coalesce(@status, status),
         card_key = CASE WHEN @set_card_key THEN @card_key ELSE card_key END
       WHERE id = @id`,
    );
    this.#claim = db.prepare(
      `UPDATE watches SET lease_holder = @holder, lease_until = @until
       WHERE id = @id AND status = 'active' AND next_check_at <= @now
         AND (lease_until IS NULL OR lease_until <= @now OR lease_holder = @holder)
       RETURNING *`,
    );
    this.#release = db.prepare(
      'UPDATE watches SET lease_holder = NULL, lease_until = NULL WHERE id = ? AND lease_holder = ?',
    );
    this.#prune = db.prepare("DELETE FROM watches WHERE status != 'active' AND expires_at < ?");
  }

  add(watch: NewWatch): Watch {
    this.#pruneNow();
    const created: Watch = {
      id: watch.id ?? randomUUID(),
      kind: watch.kind,
      target: watch.target,
      owner: watch.owner,
      conversation: watch.conversation,
      cardKey: watch.cardKey,
      state: watch.state,
      nextCheckAt: watch.nextCheckAt,
      createdAt: this.clock.now(),
      expiresAt: watch.expiresAt,
      status: 'active',
    };
    const row = toRow(created);
    this.#insert.run(row);
    return fromRow(row);
  }

  get(id: string): Watch | undefined {
    const row = this.#get.get(id);
    return row && fromRow(row);
  }

  due(now: number, limit: number, holder?: string): Watch[] {
    return this.#due.all({ now, limit, holder: holder ?? null }).map(fromRow);
  }

  active(): Watch[] {
    return this.#active.all().map(fromRow);
  }

  activeWhere(filter: WatchFilter): Watch[] {
    const fields = (Object.keys(WATCH_FILTER_COLUMNS) as (keyof WatchFilter)[]).filter(
      (f) => filter[f] !== undefined,
    );
    if (fields.length === 0) throw new Error('activeWhere needs at least one field (use active() for all)');
    const sql = `SELECT * FROM watches WHERE status = 'active' AND ${fields.map((f) => `${WATCH_FILTER_COLUMNS[f]} = ?`).join(' AND ')} ORDER BY created_at`;
    let statement = this.#where.get(sql);
    if (!statement) {
      statement = this.#db.prepare<unknown[], WatchRow>(sql);
      this.#where.set(sql, statement);
    }
    return statement.all(...fields.map((f) => filter[f])).map(fromRow);
  }

  findActive(kind: WatchKind, target: string): Watch | undefined {
    const row = this.#findActive.get(kind, target);
    return row && fromRow(row);
  }

  findActiveIn(kind: WatchKind, target: string, conversation: string): Watch | undefined {
    const row = this.#findActiveIn.get(kind, target, conversation);
    return row && fromRow(row);
  }

  update(id: string, patch: Partial<Pick<Watch, 'state' | 'nextCheckAt' | 'status' | 'cardKey'>>): void {
    this.#update.run({
      id,
      state: patch.state === undefined ? null : JSON.stringify(patch.state),
      next_check_at: patch.nextCheckAt ?? null,
      status: patch.status ?? null,
      set_card_key: patch.cardKey === undefined ? 0 : 1,
      card_key: patch.cardKey ?? null,
    });
  }

  /** One transaction for the batch: a poller pass claims up to its batch size at once. */
  claim(ids: readonly string[], lease: { holder: string; now: number; until: number }): Watch[] {
    return this.#db.transaction(() => {
      const claimed: Watch[] = [];
      for (const id of ids) {
        const row = this.#claim.get({ id, holder: lease.holder, now: lease.now, until: lease.until });
        if (row) claimed.push(fromRow(row));
      }
      return claimed;
    })();
  }

  release(id: string, holder: string): boolean {
    return this.#release.run(id, holder).changes > 0;
  }

  /** Drops finished watches long past their expiry; at most once an hour, piggybacked on `add`. */
  #pruneNow(): void {
    const now = this.clock.now();
    if (now - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now;
    this.#prune.run(now - FINISHED_RETENTION_MS);
  }
}

function toRow(watch: Watch): WatchRow {
  return {
    id: watch.id,
    kind: watch.kind,
    target: watch.target,
    owner: watch.owner,
    conversation: watch.conversation,
    card_key: watch.cardKey,
    state: JSON.stringify(watch.state),
    next_check_at: watch.nextCheckAt,
    created_at: watch.createdAt,
    expires_at: watch.expiresAt,
    status: watch.status,
  };
}

function fromRow(row: WatchRow): Watch {
  return {
    id: row.id,
    kind: row.kind,
    target: row.target,
    owner: row.owner,
    conversation: row.conversation,
    cardKey: row.card_key,
    // Written only by toRow, from a Record.
    state: JSON.parse(row.state) as Record<string, unknown>,
    nextCheckAt: row.next_check_at,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    status: row.status,
  };
}
