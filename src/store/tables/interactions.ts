/**
 * Interaction state: what a chat adapter keeps between one interaction and the next — a form it
 * showed, the pages of a form submitted so far, a value too long for a control — under a key, until it expires.
 * Whichever replica receives the next interaction reads it here. Written once for both databases (sql.ts).
 *
 * A value marked `sealed` (a credential, such as an interaction token that can edit a message for 15 minutes)
 * is sealed at rest with the store's secret key, as linked keys are, its key as the additional data: a database
 * dump holds no usable token, and a row that cannot be opened (another secret key) reads as gone.
 */
import type { Clock, InteractionEntry, Store } from '../../core/ports/index.js';
import { seal, unseal } from '../crypto.js';
import { json, readJson, type Sql } from '../sql.js';
import { PeriodicPrune } from './periodic-prune.js';

type InteractionStore = Store['interactions'];

interface Row {
  value: string;
  sealed: number;
  expires_at: number;
}

interface SealedValue {
  iv: string;
  tag: string;
  data: string;
}

/** Expired rows are deleted at most this often, by the replica that writes next. */
const PRUNE_EVERY_MS = 60_000;
/** Rows per INSERT: a render keeps a few, a time-zone question about twenty. */
const ROWS_PER_STATEMENT = 100;

export class InteractionStates implements InteractionStore {
  readonly #prune = new PeriodicPrune(PRUNE_EVERY_MS, () => this.prune());

  constructor(
    private readonly sql: Sql,
    private readonly secretKey: Buffer,
    private readonly clock: Clock,
  ) {}

  async put(entries: readonly InteractionEntry[]): Promise<void> {
    const now = this.clock.now();
    // One statement may not write a key twice (PostgreSQL refuses it): the last entry for a key wins.
    const unique = [...new Map(entries.map((e) => [e.key, e])).values()];
    for (let at = 0; at < unique.length; at += ROWS_PER_STATEMENT) {
      const chunk = unique.slice(at, at + ROWS_PER_STATEMENT);
      const params = chunk.flatMap((e) => [
        e.key,
        e.sealed ? json(this.#seal(e.key, e.value)) : json(e.value),
        e.sealed ? 1 : 0,
        now + e.ttlMs,
      ]);
      const rows = chunk.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`);
      await this.sql.count(
        `INSERT INTO interaction_state (id, value, sealed, expires_at) VALUES ${rows.join(', ')}
         ON CONFLICT (id) DO UPDATE SET value = excluded.value, sealed = excluded.sealed,
           expires_at = excluded.expires_at`,
        params,
      );
    }
    await this.#prune.due(now);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.sql.row<Row>(
      'SELECT value, sealed, expires_at FROM interaction_state WHERE id = $1 AND expires_at > $2',
      [key, this.clock.now()],
    );
    return row && this.#open<T>(key, row);
  }

  async take<T>(key: string): Promise<T | undefined> {
    const row = await this.sql.row<Row>(
      'DELETE FROM interaction_state WHERE id = $1 RETURNING value, sealed, expires_at',
      [key],
    );
    return row && row.expires_at > this.clock.now() ? this.#open<T>(key, row) : undefined;
  }

  prune(): Promise<number> {
    return this.sql.count('DELETE FROM interaction_state WHERE expires_at <= $1', [this.clock.now()]);
  }

  #seal(key: string, value: unknown): SealedValue {
    const { iv, tag, ciphertext } = seal(this.secretKey, JSON.stringify(value), key);
    return { iv: iv.toString('base64'), tag: tag.toString('base64'), data: ciphertext.toString('base64') };
  }

  #open<T>(key: string, row: Row): T | undefined {
    if (!Number(row.sealed)) return readJson<T>(row.value);
    const sealed = readJson<SealedValue>(row.value);
    try {
      const plain = unseal(
        this.secretKey,
        {
          iv: Buffer.from(sealed.iv, 'base64'),
          tag: Buffer.from(sealed.tag, 'base64'),
          ciphertext: Buffer.from(sealed.data, 'base64'),
        },
        key,
      );
      return JSON.parse(plain) as T;
    } catch {
      // Sealed under another secret key (or altered): as if it had expired; its reader has a fallback.
      return undefined;
    }
  }
}
