import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecretKey, SECRET_KEY_FILE } from '../../src/store/secret-key.js';
import { tempDir } from './helpers.js';

describe('loadSecretKey', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  it('decodes REELBOT_SECRET_KEY and writes no file', () => {
    const key = randomBytes(32);
    expect(loadSecretKey({ env: key.toString('base64'), dataDir: dir }).equals(key)).toBe(true);
    expect(loadSecretKey({ env: ` ${key.toString('base64')}\n`, dataDir: dir }).equals(key)).toBe(true);
    expect(existsSync(join(dir, SECRET_KEY_FILE))).toBe(false);
  });

  it.each([
    ['not base64', 'not base64 at all!'],
    ['16 bytes', randomBytes(16).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['hex of 32 bytes', randomBytes(32).toString('hex')],
    ['unpadded', randomBytes(32).toString('base64').replace(/=+$/, '')],
  ])('rejects %s, naming the variable and how to make one', (_, value) => {
    expect(() => loadSecretKey({ env: value, dataDir: dir })).toThrow(
      /REELBOT_SECRET_KEY.*32 bytes.*openssl rand -base64 32/,
    );
  });

  it('creates the data dir 0700, and warns when the key file can be read by others', () => {
    const dataDir = join(dir, 'fresh');
    const warnings: string[] = [];
    loadSecretKey({ env: undefined, dataDir, warn: (m) => warnings.push(m) });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(warnings).toEqual([]);
    chmodSync(join(dataDir, SECRET_KEY_FILE), 0o644);
    loadSecretKey({ env: undefined, dataDir, warn: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`chmod 600 ${join(dataDir, SECRET_KEY_FILE)}`);
    expect(warnings[0]).not.toMatch(/[A-Za-z0-9+/]{40,}={0,2}/); // the key itself is never in it
  });

  it('generates the key file once with mode 0600 (creating the data dir) and reuses it', () => {
    const dataDir = join(dir, 'nested', 'data');
    const first = loadSecretKey({ env: undefined, dataDir });
    const file = join(dataDir, SECRET_KEY_FILE);
    expect(first.length).toBe(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);

    const again = loadSecretKey({ env: '', dataDir });
    expect(again.equals(first)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('base64'));
  });

  it('prefers the variable over an existing file', () => {
    const generated = loadSecretKey({ env: undefined, dataDir: dir });
    const fromEnv = randomBytes(32);
    expect(loadSecretKey({ env: fromEnv.toString('base64'), dataDir: dir }).equals(fromEnv)).toBe(true);
    expect(loadSecretKey({ env: undefined, dataDir: dir }).equals(generated)).toBe(true);
  });

  it('refuses a corrupt key file instead of replacing it', () => {
    const file = join(dir, SECRET_KEY_FILE);
    writeFileSync(file, 'garbage\n');
    expect(() => loadSecretKey({ env: undefined, dataDir: dir })).toThrow(/secret\.key.*REELBOT_SECRET_KEY/);
    expect(readFileSync(file, 'utf8')).toBe('garbage\n');
  });
});
