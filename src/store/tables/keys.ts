/** Linked API keys, encrypted at rest; only prefix and team are stored in clear (for display). */
import {
  type Clock,
  type LinkedKey,
  type Store,
  StoredKeyUnreadableError,
  type UserAddress,
} from '../../core/ports/index.js';
import type { RowSealer } from '../crypto.js';
import type { Sql } from '../sql.js';

type KeyStore = Store['keys'];

interface KeyRow {
  user_address: string;
  secret_key_id: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
  key_prefix: string;
  team_id: string;
  team_name: string;
  linked_at: number;
}

/** Sealed with the user address as additional data (`KEY_UNREADABLE` says why one cannot be opened). */
export class Keys implements KeyStore {
  constructor(
    private readonly sql: Sql,
    private readonly sealer: RowSealer,
    private readonly clock: Clock,
  ) {}

  async get(user: UserAddress): Promise<LinkedKey | undefined> {
    const row = await this.sql.row<KeyRow>('SELECT * FROM linked_keys WHERE user_address = $1', [user]);
    return row && this.#fromRow(row);
  }

  async put(user: UserAddress, key: Omit<LinkedKey, 'linkedAt'>): Promise<void> {
    const { secret_key_id, iv, tag, ciphertext } = this.sealer.seal(key.apiKey, user);
    await this.sql.count(
      `INSERT INTO linked_keys (user_address, secret_key_id, iv, tag, ciphertext, key_prefix, team_id, team_name,
         linked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (user_address) DO UPDATE SET secret_key_id = excluded.secret_key_id, iv = excluded.iv,
         tag = excluded.tag, ciphertext = excluded.ciphertext, key_prefix = excluded.key_prefix,
         team_id = excluded.team_id, team_name = excluded.team_name, linked_at = excluded.linked_at`,
      [user, secret_key_id, iv, tag, ciphertext, key.keyPrefix, key.teamId, key.teamName, this.clock.now()],
    );
  }

  async delete(user: UserAddress): Promise<boolean> {
    return (await this.sql.count('DELETE FROM linked_keys WHERE user_address = $1', [user])) === 1;
  }

  #fromRow(row: KeyRow): LinkedKey {
    let apiKey: string;
    try {
      apiKey = this.sealer.open(row, row.user_address);
    } catch (cause) {
      throw new StoredKeyUnreadableError(row.user_address, { cause });
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
