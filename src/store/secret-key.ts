/**
 * The key that encrypts stored API keys (DESIGN §2): `REELBOT_SECRET_KEY` (base64 of 32 bytes), else
 * `<dataDir>/secret.key`, generated once with mode 0600.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_KEY_BYTES } from './crypto.js';

export const SECRET_KEY_FILE = 'secret.key';
const MAKE_ONE = 'generate one with `openssl rand -base64 32`';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface LoadSecretKeyOptions {
  /** The value of `REELBOT_SECRET_KEY`; empty or undefined means unset. */
  env: string | undefined;
  /** Where `secret.key` is read from or generated into. */
  dataDir: string;
  /** Told when the key file can be read by other users of the machine. */
  warn?: (message: string) => void;
}

export function loadSecretKey({ env, dataDir, warn }: LoadSecretKeyOptions): Buffer {
  const value = env?.trim();
  if (value) {
    const key = decodeSecretKey(value);
    if (!key) {
      throw new Error(`REELBOT_SECRET_KEY must be the base64 encoding of exactly 32 bytes; ${MAKE_ONE}.`);
    }
    return key;
  }
  const file = join(dataDir, SECRET_KEY_FILE);
  const key = readOrCreateKeyFile(file, dataDir);
  if (warn && (statSync(file).mode & 0o077) !== 0) {
    warn(
      `${file} can be read by other users of this machine (mode ${(statSync(file).mode & 0o777).toString(8)}): ` +
        `run \`chmod 600 ${file}\`, or keep the key in a secret store as REELBOT_SECRET_KEY.`,
    );
  }
  return key;
}

/** The 32-byte key from its base64 text, or undefined when it is not exactly that (config checks it too). */
export function decodeSecretKey(text: string): Buffer | undefined {
  if (!BASE64.test(text) || text.length % 4 !== 0) return undefined;
  const key = Buffer.from(text, 'base64');
  return key.length === SECRET_KEY_BYTES ? key : undefined;
}

function readOrCreateKeyFile(file: string, dataDir: string): Buffer {
  const existing = readKeyFile(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails if another process created it meanwhile; then that key wins and is read below.
    writeFileSync(file, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const created = readKeyFile(file);
  if (!created) throw new Error(`Could not read back the generated secret key file ${file}.`);
  return created;
}

function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = decodeSecretKey(text.trim());
  if (!key) {
    throw new Error(
      `The secret key file ${file} does not hold base64 of 32 bytes. Restore it from a backup, or set ` +
        `REELBOT_SECRET_KEY (${MAKE_ONE}); linked API keys encrypted with the old key must then be linked again.`,
    );
  }
  return key;
}
