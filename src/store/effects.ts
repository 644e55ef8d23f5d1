/**
 * Pending remote effects (issue 14): a charged or public write recorded before its request and settled by the
 * commit that records its outcome, so one whose commit failed (disk full, a locked database, a crash) is found
 * and replayed instead of forgotten.
 */
import type Database from 'better-sqlite3';
import type { Clock, PendingEffect, Store } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type EffectsStore = Synchronous<Store['effects']>;

interface EffectRow {
  idempotency_key: string;
  command: string;
  args: string;
  request: string;
  attempts: number;
  last_error: string | null;
  created_at: number;
  next_at: number;
}

/** Bounds what one row keeps of a failure message. */
const MAX_ERROR_CHARS = 500;

export class SqliteEffects implements EffectsStore {
  readonly #begin: Database.Statement<[string, string, string, string, number, number]>;
  readonly #settle: Database.Statement<[string]>;
  readonly #due: Database.Statement<[number, number], EffectRow>;
  readonly #claim: Database.Statement<[number, string, number]>;
  readonly #failed: Database.Statement<[string, string]>;
  readonly #count: Database.Statement<[], { n: number }>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    // Pressed again: the same key, so the row is re-armed (its first try and its age stay).
    this.#begin = db.prepare(
      `INSERT INTO pending_effects (idempotency_key, command, args, request, created_at, next_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (idempotency_key) DO UPDATE SET next_at = max(next_at, excluded.next_at)`,
    );
    this.#settle = db.prepare('DELETE FROM pending_effects WHERE idempotency_key = ?');
    this.#due = db.prepare(
      'SELECT * FROM pending_effects WHERE next_at <= ? ORDER BY next_at, created_at LIMIT ?',
    );
    this.#claim = db.prepare(
      'UPDATE pending_effects SET next_at = ? WHERE idempotency_key = ? AND next_at = ?',
    );
    this.#failed = db.prepare(
      'UPDATE pending_effects SET attempts = attempts + 1, last_error = ? WHERE idempotency_key = ?',
    );
    this.#count = db.prepare('SELECT count(*) AS n FROM pending_effects');
  }

  begin(effect: Omit<PendingEffect, 'attempts' | 'createdAt' | 'lastError'>): void {
    this.#begin.run(
      effect.idempotencyKey,
      effect.command,
      JSON.stringify(effect.args),
      JSON.stringify(effect.request),
      this.clock.now(),
      effect.nextAt,
    );
  }

  settle(idempotencyKey: string): boolean {
    return this.#settle.run(idempotencyKey).changes === 1;
  }

  due(now: number, limit: number): PendingEffect[] {
    return this.#due.all(now, limit).map(fromRow);
  }

  claim(idempotencyKey: string, claim: { from: number; until: number }): boolean {
    return this.#claim.run(claim.until, idempotencyKey, claim.from).changes === 1;
  }

  failed(idempotencyKey: string, error: string): void {
    this.#failed.run(error.slice(0, MAX_ERROR_CHARS), idempotencyKey);
  }

  count(): number {
    return this.#count.get()?.n ?? 0;
  }
}

function fromRow(row: EffectRow): PendingEffect {
  return {
    idempotencyKey: row.idempotency_key,
    command: row.command,
    args: JSON.parse(row.args) as Record<string, unknown>,
    request: JSON.parse(row.request) as Record<string, unknown>,
    attempts: row.attempts,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    createdAt: row.created_at,
    nextAt: row.next_at,
  };
}
