/** Linked API keys, encrypted at rest; only prefix and team are stored in clear (for display). */
import type Database from 'better-sqlite3';
import {
  type Clock,
  type LinkedKey,
  type Store,
  StoredKeyUnreadableError,
  type UserAddress,
} from '../core/ports.js';
import { KEY_UNREADABLE, seal, secretKeyFingerprint, unsealRow } from './crypto.js';
import type { Synchronous } from './synchronous.js';

type KeyStore = Synchronous<Store['keys']>;

interface KeyRow {
  user: string;
  secret_key_id: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
  key_prefix: string;
  team_id: string;
  team_name: string;
  linked_at: number;
}

export class SqliteKeys implements KeyStore {
  readonly #select: Database.Statement<[string], KeyRow>;
  readonly #upsert: Database.Statement<[KeyRow]>;
  readonly #delete: Database.Statement<[string]>;
  readonly #secretKeyId: string;

  constructor(
    db: Database.Database,
    private readonly secretKey: Buffer,
    private readonly clock: Clock,
  ) {
    this.#select = db.prepare('SELECT * FROM linked_keys WHERE user = ?');
    this.#upsert = db.prepare(
      `INSERT INTO linked_keys (user, secret_key_id, iv, tag, ciphertext, key_prefix, team_id, team_name,
         linked_at)
       VALUES (@user, @secret_key_id, @iv, @tag, @ciphertext, @key_prefix, @team_id, @team_name, @linked_at)
       ON CONFLICT (user) DO UPDATE SET secret_key_id = excluded.secret_key_id, iv = excluded.iv, tag = excluded.tag, ciphertext = excluded.ciphertext,
         key_prefix = excluded.key_prefix, team_id = excluded.team_id, team_name = excluded.team_name,
         linked_at = excluded.linked_at`,
    );
    this.#delete = db.prepare('DELETE FROM linked_keys WHERE user = ?');
    this.#secretKeyId = secretKeyFingerprint(secretKey);
  }

  get(user: UserAddress): LinkedKey | undefined {
    const row = this.#select.get(user);
    return row && this.#fromRow(row);
  }

  put(user: UserAddress, key: Omit<LinkedKey, 'linkedAt'>): void {
    this.#upsert.run(this.#toRow(user, { ...key, linkedAt: this.clock.now() }));
  }

  delete(user: UserAddress): boolean {
    return this.#delete.run(user).changes === 1;
  }

  #toRow(user: UserAddress, key: LinkedKey): KeyRow {
    const { iv, tag, ciphertext } = seal(this.secretKey, key.apiKey, user);
    return {
      user,
      secret_key_id: this.#secretKeyId,
      iv,
      tag,
      ciphertext,
      key_prefix: key.keyPrefix,
      team_id: key.teamId,
      team_name: key.teamName,
      linked_at: key.linkedAt,
    };
  }

  #fromRow(row: KeyRow): LinkedKey {
    let apiKey: string;
    try {
      apiKey = unsealRow(this.secretKey, row, {
        aad: row.user,
        secretKeyId: this.#secretKeyId,
        why: KEY_UNREADABLE,
      });
    } catch (cause) {
      throw new StoredKeyUnreadableError(row.user, { cause });
    }
    return {
      apiKey,
      keyPrefix: row.key_prefix,
      teamId: row.team_id,
      teamName: row.team_name,
      linkedAt: row.linked_at,
    };
  }
}
