/**
 * Chat app installations (Slack OAuth) and the adapters' post journal. Installations carry bot tokens, so
 * they are sealed like linked keys, with the installation id as additional data (a row moved to another id
 * fails to open).
 */
import type {
  ChatDelivery,
  Clock,
  ConversationAddress,
  MessageAddress,
  Store,
} from '../../core/ports/index.js';
import { type RowSealer, UnsealError } from '../crypto.js';
import type { Sql } from '../sql.js';
import { PeriodicPrune } from './periodic-prune.js';

type InstallationStore = Store['installations'];
type DeliveryJournal = Store['deliveries'];

interface InstallationRow {
  id: string;
  secret_key_id: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/** Sealed with the installation id as additional data (`INSTALLATION_UNREADABLE` says why one cannot be opened). */
export class Installations implements InstallationStore {
  constructor(
    private readonly sql: Sql,
    private readonly sealer: RowSealer,
    private readonly clock: Clock,
  ) {}

  async get(id: string): Promise<string | undefined> {
    const row = await this.sql.row<InstallationRow>(
      'SELECT id, secret_key_id, iv, tag, ciphertext FROM installations WHERE id = $1',
      [id],
    );
    if (!row) return undefined;
    try {
      return this.sealer.open(row, row.id);
    } catch (cause) {
      throw new UnsealError(`The installation ${id} cannot be decrypted: ${(cause as Error).message}`, {
        cause,
      });
    }
  }

  async put(id: string, data: string): Promise<void> {
    const { secret_key_id, iv, tag, ciphertext } = this.sealer.seal(data, id);
    await this.sql.count(
      `INSERT INTO installations (id, secret_key_id, iv, tag, ciphertext, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET secret_key_id = excluded.secret_key_id, iv = excluded.iv,
         tag = excluded.tag, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
      [id, secret_key_id, iv, tag, ciphertext, this.clock.now()],
    );
  }

  async delete(id: string): Promise<boolean> {
    return (await this.sql.count('DELETE FROM installations WHERE id = $1', [id])) === 1;
  }
}

interface DeliveryRow {
  conversation: string;
  message: string | null;
  started_at: number;
}

/** How long a journal row is kept: far beyond any outbox retry of one row. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export class Deliveries implements DeliveryJournal {
  /** At most once an hour, piggybacked on `begin`. */
  readonly #prune = new PeriodicPrune(PRUNE_EVERY_MS, (now) =>
    this.sql.count('DELETE FROM chat_deliveries WHERE started_at < $1', [now - DELIVERY_RETENTION_MS]),
  );

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async get(dedupeId: string): Promise<ChatDelivery | undefined> {
    const row = await this.sql.row<DeliveryRow>(
      'SELECT conversation, message, started_at FROM chat_deliveries WHERE dedupe_id = $1',
      [dedupeId],
    );
    if (!row) return undefined;
    return {
      conversation: row.conversation,
      startedAt: row.started_at,
      ...(row.message ? { message: row.message } : {}),
    };
  }

  async begin(dedupeId: string, conversation: ConversationAddress): Promise<void> {
    const now = this.clock.now();
    await this.sql.count(
      `INSERT INTO chat_deliveries (dedupe_id, conversation, message, started_at) VALUES ($1, $2, NULL, $3)
       ON CONFLICT (dedupe_id) DO NOTHING`,
      [dedupeId, conversation, now],
    );
    await this.#prune.due(now);
  }

  async finish(dedupeId: string, message: MessageAddress): Promise<void> {
    await this.sql.count('UPDATE chat_deliveries SET message = $1 WHERE dedupe_id = $2', [message, dedupeId]);
  }
}
