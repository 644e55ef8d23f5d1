/**
 * Pending remote effects: a charged or public write recorded before its request and settled by the
 * commit that records its outcome, so one whose commit failed (disk full, a locked database, a lost
 * connection, a crash) is found and replayed instead of forgotten.
 */
import type { Clock, PendingEffect, Store } from '../../core/ports/index.js';
import { json, queriedJson, readJson, type Sql, withoutNul } from '../sql.js';

type EffectsStore = Store['effects'];

interface EffectRow {
  idempotency_key: string;
  command: string;
  args: unknown;
  request: unknown;
  attempts: number;
  last_error: string | null;
  created_at: number;
  next_at: number;
}

/** Bounds what one row keeps of a failure message. */
const MAX_ERROR_CHARS = 500;

export class Effects implements EffectsStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async begin(effect: Omit<PendingEffect, 'attempts' | 'createdAt' | 'lastError'>): Promise<void> {
    // Pressed again: the same key, so the row is re-armed (its first try and its age stay).
    await this.sql.count(
      `INSERT INTO pending_effects AS e (idempotency_key, command, args, request, created_at, next_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (idempotency_key) DO UPDATE SET next_at = greatest(e.next_at, excluded.next_at)`,
      [
        effect.idempotencyKey,
        effect.command,
        json(effect.args),
        queriedJson(effect.request),
        this.clock.now(),
        effect.nextAt,
      ],
    );
  }

  async settle(idempotencyKey: string): Promise<boolean> {
    return (
      (await this.sql.count('DELETE FROM pending_effects WHERE idempotency_key = $1', [idempotencyKey])) === 1
    );
  }

  async due(now: number, limit: number): Promise<PendingEffect[]> {
    const rows = await this.sql.rows<EffectRow>(
      'SELECT * FROM pending_effects WHERE next_at <= $1 ORDER BY next_at, created_at LIMIT $2',
      [now, limit],
    );
    return rows.map(fromRow);
  }

  async claim(idempotencyKey: string, claim: { from: number; until: number }): Promise<boolean> {
    // A compare-and-set on next_at: of two replayers that read the same row, one moves it.
    const claimed = await this.sql.count(
      'UPDATE pending_effects SET next_at = $1 WHERE idempotency_key = $2 AND next_at = $3',
      [claim.until, idempotencyKey, claim.from],
    );
    return claimed === 1;
  }

  async failed(idempotencyKey: string, error: string): Promise<void> {
    await this.sql.count(
      'UPDATE pending_effects SET attempts = attempts + 1, last_error = $1 WHERE idempotency_key = $2',
      [withoutNul(error.slice(0, MAX_ERROR_CHARS)), idempotencyKey],
    );
  }

  async count(): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*) AS n FROM pending_effects'))?.n ?? 0;
  }
}

function fromRow(row: EffectRow): PendingEffect {
  return {
    idempotencyKey: row.idempotency_key,
    command: row.command,
    // Both written only by begin(), from Records.
    args: readJson<Record<string, unknown>>(row.args),
    request: readJson<Record<string, unknown>>(row.request),
    attempts: row.attempts,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    createdAt: row.created_at,
    nextAt: row.next_at,
  };
}
