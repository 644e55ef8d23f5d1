/**
 * AES-256-GCM sealing of secrets at rest. Each value gets a fresh random 12-byte IV; the caller's `aad`
 * (the owning user address) is authenticated, so a row copied to another user fails to open.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/** The ciphertext, IV, tag or additional data do not match: wrong secret key, altered or moved row. */
export class UnsealError extends Error {
  override readonly name = 'UnsealError';
}

export function assertSecretKey(secretKey: Buffer): void {
  if (secretKey.length !== SECRET_KEY_BYTES) {
    throw new Error(`The store secret key must be ${SECRET_KEY_BYTES} bytes, got ${secretKey.length}.`);
  }
}

export function seal(secretKey: Buffer, plaintext: string, aad: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secretKey, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

export function unseal(secretKey: Buffer, sealed: Sealed, aad: string): string {
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) {
    throw new UnsealError('malformed sealed value (IV or tag length)');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', secretKey, sealed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch (cause) {
    // Node's message ("Unsupported state or unable to authenticate data") says nothing useful to an operator.
    throw new UnsealError('authentication failed (wrong secret key, or the value was altered or moved)', {
      cause,
    });
  }
}

/** Why a linked key (`StoredKeyUnreadableError`'s cause) or an installation cannot be read. */
export const KEY_UNREADABLE = {
  moved: 'the row was altered or copied from another user',
  otherKey: 'it was stored under a different secret key',
};
export const INSTALLATION_UNREADABLE = {
  moved: 'the row was altered or copied from another installation',
  otherKey: 'it was stored under a different secret key; install the app to the workspace again',
};

/** A sealed row as a table keeps it: the sealed value and the fingerprint of the secret key it was sealed under. */
export type SealedRow = Sealed & { secret_key_id: string };

/**
 * Seals and opens one table's rows under the store's secret key. Opening throws an `UnsealError` that says why
 * in an operator's words: the row was altered or moved (`why.moved`: it was sealed under this secret key) or
 * it was sealed under another secret key (`why.otherKey`).
 */
export class RowSealer {
  readonly #keyId: string;

  constructor(
    private readonly secretKey: Buffer,
    private readonly why: { moved: string; otherKey: string },
  ) {
    this.#keyId = secretKeyFingerprint(secretKey);
  }

  /** `plaintext` sealed with `aad` (the row's key) as additional data, and this secret key's fingerprint. */
  seal(plaintext: string, aad: string): SealedRow {
    return { ...seal(this.secretKey, plaintext, aad), secret_key_id: this.#keyId };
  }

  open(row: SealedRow, aad: string): string {
    try {
      return unseal(this.secretKey, row, aad);
    } catch (cause) {
      throw new UnsealError(row.secret_key_id === this.#keyId ? this.why.moved : this.why.otherKey, {
        cause,
      });
    }
  }
}

/** A short, non-reversible fingerprint of the secret key, to tell an operator the key changed. */
export function secretKeyFingerprint(secretKey: Buffer): string {
  return createHmac('sha256', secretKey).update('reelbot secret key fingerprint').digest('hex').slice(0, 16);
}
