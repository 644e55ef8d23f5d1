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

/** A short, non-reversible fingerprint of the secret key, to tell an operator the key changed. */
export function secretKeyFingerprint(secretKey: Buffer): string {
  return createHmac('sha256', secretKey).update('reelbot secret key fingerprint').digest('hex').slice(0, 16);
}
