/**
 * What the Discord adapter keeps between interactions lives in the store: a secret typed on an
 * earlier page of a form in pages, and the interaction token a confirmation was asked from, never reach the
 * database file in clear; both read back for the next interaction.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdapterMemory } from '../../adapters/discord/memory.js';
import type { Form } from '../../src/core/text/cards.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { newSecretKey, T0, tempDir } from '../store/helpers.js';
import { TestClock } from '../support/test-clock.js';

const SECRET = 'fl_live_PAGEDSECRET0123456789abcdefghijklmnop';
const TOKEN = 'aW50ZXJhY3Rpb246MTMwMDAwMDAwMDAwMDAwOTk5OnNlY3JldA';

const form: Form = {
  id: 'demo.form',
  title: 'Demo',
  submitLabel: 'Save',
  state: '',
  inputs: [
    { kind: 'text', id: 'key', label: 'API key', secret: true },
    ...Array.from({ length: 6 }, (_, i) => ({ kind: 'text' as const, id: `f${i}`, label: `F${i}` })),
  ],
};

describe('the Discord adapter memory at rest', () => {
  let dir: string;
  let cleanup: () => void;
  let store: SqliteStore;

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    store = openStore({ path: join(dir, 'reelbot.db'), secretKey: newSecretKey(), clock: new TestClock(T0) });
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const inClear = (needle: string) =>
    ['reelbot.db', 'reelbot.db-wal']
      .map((f) => join(dir, f))
      .filter((f) => existsSync(f))
      .some((f) => readFileSync(f).includes(Buffer.from(needle)));

  it('seals the pages of a form with a secret input, and the asked-from token', async () => {
    const memory = new AdapterMemory(store.interactions);
    await memory.keepPages('k1', form, { key: SECRET, f0: 'plain words' });
    await memory.keepAsked('video.delete', 'v1', { applicationId: 'app', token: TOKEN });
    expect(inClear('plain words') || inClear(SECRET) || inClear(TOKEN)).toBe(false);
    expect(await memory.pages('k1')).toEqual({ key: SECRET, f0: 'plain words' });
    expect(await memory.takeAsked('video.delete', 'v1')).toEqual({ applicationId: 'app', token: TOKEN });
    expect(await memory.takeAsked('video.delete', 'v1')).toBeUndefined();
  });

  it('keeps the pages of a form without secrets as plain JSON', async () => {
    const memory = new AdapterMemory(store.interactions);
    const plain = { ...form, inputs: form.inputs.filter((i) => i.id !== 'key') };
    await memory.keepPages('k2', plain, { f0: 'plain words' });
    expect(inClear('plain words')).toBe(true);
    expect(await memory.pages('k2')).toEqual({ f0: 'plain words' });
  });
});
