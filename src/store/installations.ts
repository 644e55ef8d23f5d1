/**
 * Chat app installations (Slack OAuth) and the adapters' post journal. Installations carry bot tokens, so
 * they are sealed like linked keys, with the installation id as additional data (a row moved to another id
 * fails to open).
 */
import type Database from 'better-sqlite3';
import type { ChatDelivery, Clock, ConversationAddress, MessageAddress, Store } from '../core/ports.js';
import { INSTALLATION_UNREADABLE, seal, secretKeyFingerprint, UnsealError, unsealRow } from './crypto.js';
import type { Synchronous } from './synchronous.js';

interface InstallationRow {
  id: string;
  secret_key_id: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
  updated_at: number;
}

type InstallationStore = Synchronous<Store['installations']>;
type DeliveryJournal = Synchronous<Store['deliveries']>;

export class SqliteInstallations implements InstallationStore {
  readonly #select: Database.Statement<[string], InstallationRow>;
  readonly #upsert: Database.Statement<[InstallationRow]>;
  readonly #delete: Database.Statement<[string]>;
  readonly #secretKeyId: string;

  constructor(
    db: Database.Database,
    private readonly secretKey: Buffer,
    private readonly clock: Clock,
  ) {
    this.#select = db.prepare('SELECT * FROM installations WHERE id = ?');
    this.#upsert = db.prepare(
      `INSERT INTO installations (id, secret_key_id, iv, tag, ciphertext, updated_at)
       VALUES (@id, @secret_key_id, @iv, @tag, @ciphertext, @updated_at)
       ON CONFLICT (id) DO UPDATE SET secret_key_id = excluded.secret_key_id, iv = excluded.iv,
         tag = excluded.tag, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
    );
    this.#delete = db.prepare('DELETE FROM installations WHERE id = ?');
    this.#secretKeyId = secretKeyFingerprint(secretKey);
  }

  get(id: string): string | undefined {
    const row = this.#select.get(id);
    if (!row) return undefined;
    try {
      return unsealRow(this.secretKey, row, {
        aad: row.id,
        secretKeyId: this.#secretKeyId,
        why: INSTALLATION_UNREADABLE,
      });
    } catch (cause) {
      throw new UnsealError(`The installation ${id} cannot be decrypted: ${(cause as Error).message}`, {
        cause,
      });
    }
  }

  put(id: string, data: string): void {
    const { iv, tag, ciphertext } = seal(this.secretKey, data, id);
    this.#upsert.run({
      id,
      secret_key_id: this.#secretKeyId,
      iv,
      tag,
      ciphertext,
      updated_at: this.clock.now(),
    });
  }

  delete(id: string): boolean {
    return this.#delete.run(id).changes === 1;
  }
}

interface DeliveryRow {
  dedupe_id: string;
  conversation: string;
  message: string | null;
  started_at: number;
}

/** How long a journal row is kept: far beyond any outbox retry of one row. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export class SqliteDeliveries implements DeliveryJournal {
  readonly #select: Database.Statement<[string], DeliveryRow>;
  readonly #begin: Database.Statement<[DeliveryRow]>;
  readonly #finish: Database.Statement<[string, string]>;
  readonly #prune: Database.Statement<[number]>;
  #lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#select = db.prepare('SELECT * FROM chat_deliveries WHERE dedupe_id = ?');
    this.#begin = db.prepare(
      `INSERT INTO chat_deliveries (dedupe_id, conversation, message, started_at)
       VALUES (@dedupe_id, @conversation, @message, @started_at) ON CONFLICT (dedupe_id) DO NOTHING`,
    );
    this.#finish = db.prepare('UPDATE chat_deliveries SET message = ? WHERE dedupe_id = ?');
    this.#prune = db.prepare('DELETE FROM chat_deliveries WHERE started_at < ?');
  }

  get(dedupeId: string): ChatDelivery | undefined {
    const row = this.#select.get(dedupeId);
    if (!row) return undefined;
    return {
      conversation: row.conversation,
      startedAt: row.started_at,
      ...(row.message ? { message: row.message } : {}),
    };
  }

  begin(dedupeId: string, conversation: ConversationAddress): void {
    const now = this.clock.now();
    this.#begin.run({ dedupe_id: dedupeId, conversation, message: null, started_at: now });
    if (now - this.#lastPrune >= PRUNE_EVERY_MS) {
      this.#lastPrune = now;
      this.#prune.run(now - DELIVERY_RETENTION_MS);
    }
  }

  finish(dedupeId: string, message: MessageAddress): void {
    this.#finish.run(message, dedupeId);
  }
}
