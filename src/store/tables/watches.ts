/** Durable watches for the poller: they survive restarts and are picked by `due` through (status, next_check_at). */
import { randomUUID } from 'node:crypto';
import type {
  Clock,
  NewWatch,
  Store,
  Watch,
  WatchFilter,
  WatchKind,
  WatchLease,
} from '../../core/ports/index.js';
import { json, readJson, type Sql } from '../sql.js';
import { PeriodicPrune } from './periodic-prune.js';

type WatchStore = Store['watches'];

interface WatchRow {
  id: string;
  kind: WatchKind;
  target: string;
  owner: string;
  conversation: string;
  card_key: string | null;
  state: unknown;
  next_check_at: number;
  created_at: number;
  expires_at: number;
  status: Watch['status'];
  lease_holder: string | null;
  lease_token: number;
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
const PRUNE_EVERY_MS = 3600_000;

export class Watches implements WatchStore {
  /** Finished watches long past their expiry, at most once an hour, piggybacked on `add`. */
  readonly #prune = new PeriodicPrune(PRUNE_EVERY_MS, (now) =>
    this.sql.count("DELETE FROM watches WHERE status != 'active' AND expires_at < $1", [
      now - FINISHED_RETENTION_MS,
    ]),
  );

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async add(watch: NewWatch): Promise<Watch> {
    await this.#prune.due(this.clock.now());
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
    const state = json(created.state);
    await this.sql.count(
      `INSERT INTO watches (id, kind, target, owner, conversation, card_key, state, next_check_at, created_at,
         expires_at, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        created.id,
        created.kind,
        created.target,
        created.owner,
        created.conversation,
        created.cardKey,
        state,
        created.nextCheckAt,
        created.createdAt,
        created.expiresAt,
        created.status,
      ],
    );
    // The state as stored (a JSON round trip), as get() will return it.
    return { ...created, state: JSON.parse(state) as Record<string, unknown> };
  }

  async get(id: string): Promise<Watch | undefined> {
    const row = await this.sql.row<WatchRow>('SELECT * FROM watches WHERE id = $1', [id]);
    return row && fromRow(row);
  }

  async due(now: number, limit: number, holder?: string): Promise<Watch[]> {
    const rows = await this.sql.rows<WatchRow>(
      `SELECT * FROM watches WHERE status = 'active' AND next_check_at <= $1
         AND (lease_until IS NULL OR lease_until <= ${this.sql.leaseNow('$1')} OR lease_holder = $3)
       ORDER BY next_check_at, created_at LIMIT $2`,
      [now, limit, holder ?? null],
    );
    return rows.map(fromRow);
  }

  /**
   * One statement, so a poller pass claims up to its batch size at once: on PostgreSQL rows another replica is
   * claiming right now are skipped, not waited for (SKIP LOCKED), and the lease conditions are checked again on
   * the locked row; on SQLite the statement holds the write lock.
   */
  async claim(
    ids: readonly string[],
    lease: { holder: string; now: number; until: number },
  ): Promise<Watch[]> {
    if (ids.length === 0) return [];
    // SQLite's RETURNING names no table (it returns the updated table's columns only); PostgreSQL's `*` would
    // add free's.
    const returning = this.sql.dialect === 'sqlite' ? '*' : 'watches.*';
    // Lapsed and lasting by the database's clock on PostgreSQL ($5, the caller's now, only where there is none).
    const at = this.sql.leaseNow('$5');
    const rows = await this.sql.rows<WatchRow>(
      `WITH free AS (
         SELECT id FROM watches
         WHERE id = ANY($1::text[]) AND status = 'active' AND next_check_at <= $2
           AND (lease_until IS NULL OR lease_until <= ${at} OR lease_holder = $3)
         FOR UPDATE SKIP LOCKED
       )
       UPDATE watches SET lease_holder = $3, lease_until = ${at} + $4, lease_token = lease_token + 1
       FROM free WHERE watches.id = free.id
       RETURNING ${returning}`,
      [ids, lease.now, lease.holder, lease.until - lease.now, lease.now],
    );
    const order = new Map(ids.map((id, i) => [id, i]));
    return rows
      .map((row) => ({ ...fromRow(row), lease: { holder: lease.holder, token: row.lease_token } }))
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  async release(id: string, lease: WatchLease): Promise<boolean> {
    const n = await this.sql.count(
      `UPDATE watches SET lease_holder = NULL, lease_until = NULL
       WHERE id = $1 AND lease_holder = $2 AND lease_token = $3`,
      [id, lease.holder, lease.token],
    );
    return n > 0;
  }

  async active(): Promise<Watch[]> {
    const rows = await this.sql.rows<WatchRow>(
      "SELECT * FROM watches WHERE status = 'active' ORDER BY next_check_at",
    );
    return rows.map(fromRow);
  }

  async activeWhere(filter: WatchFilter): Promise<Watch[]> {
    const fields = (Object.keys(WATCH_FILTER_COLUMNS) as (keyof WatchFilter)[]).filter(
      (f) => filter[f] !== undefined,
    );
    if (fields.length === 0) throw new Error('activeWhere needs at least one field (use active() for all)');
    const where = fields.map((f, i) => `${WATCH_FILTER_COLUMNS[f]} = $${i + 1}`).join(' AND ');
    const rows = await this.sql.rows<WatchRow>(
      `SELECT * FROM watches WHERE status = 'active' AND ${where} ORDER BY created_at`,
      fields.map((f) => filter[f]),
    );
    return rows.map(fromRow);
  }

  async findActive(kind: WatchKind, target: string): Promise<Watch | undefined> {
    const row = await this.sql.row<WatchRow>(
      "SELECT * FROM watches WHERE kind = $1 AND target = $2 AND status = 'active' ORDER BY created_at LIMIT 1",
      [kind, target],
    );
    return row && fromRow(row);
  }

  async findActiveIn(kind: WatchKind, target: string, conversation: string): Promise<Watch | undefined> {
    // Served by watches_target (kind, target, status): a target has a handful of rows, one per conversation.
    const row = await this.sql.row<WatchRow>(
      `SELECT * FROM watches WHERE kind = $1 AND target = $2 AND status = 'active' AND conversation = $3
       ORDER BY created_at LIMIT 1`,
      [kind, target, conversation],
    );
    return row && fromRow(row);
  }

  /** One statement for every patch shape: a NULL parameter means "leave the column as it is". */
  async update(
    id: string,
    patch: Partial<Pick<Watch, 'state' | 'nextCheckAt' | 'status' | 'cardKey'>>,
  ): Promise<void> {
    await this.sql.count(
      `UPDATE watches SET
         state = coalesce($2::json, state),
         next_check_at = coalesce($3::double precision, next_check_at),
         status = coalesce($4::text, status),
         card_key = CASE WHEN $5::boolean THEN $6::text ELSE card_key END
       WHERE id = $1`,
      [
        id,
        patch.state === undefined ? null : json(patch.state),
        patch.nextCheckAt ?? null,
        patch.status ?? null,
        patch.cardKey !== undefined,
        patch.cardKey ?? null,
      ],
    );
  }
}

function fromRow(row: WatchRow): Watch {
  return {
    id: row.id,
    kind: row.kind,
    target: row.target,
    owner: row.owner,
    conversation: row.conversation,
    cardKey: row.card_key,
    // Written only by add/update, from a Record.
    state: readJson<Record<string, unknown>>(row.state),
    nextCheckAt: row.next_check_at,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    status: row.status,
  };
}
