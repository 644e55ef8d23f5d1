/**
 * Cards rendered for Discord and checked against its limits (`discord-rules.ts`) on the way, and what a render
 * kept, read back from the store.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, expect } from 'vitest';
import { renderCard } from '../../adapters/discord/components.js';
import { renderEmbedCard } from '../../adapters/discord/embeds.js';
import { AdapterMemory, Kept } from '../../adapters/discord/memory.js';
import type { Card } from '../../src/core/text/cards.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { messageProblems } from './discord-rules.js';
import { controlsIn } from './read-message.js';
import type { Json } from './world.js';

const clock = new TestClock(1_000_000);
export const memory = () => new Kept();
const stores: SqliteStore[] = [];
afterAll(() => Promise.all(stores.map((s) => s.close())));
/** What a render kept, saved and read back as the next interaction reads it (from the store). */
export async function readBack(kept: Kept): Promise<AdapterMemory> {
  const store = openStore({ path: ':memory:', secretKey: randomBytes(32), clock });
  stores.push(store);
  const read = new AdapterMemory(store.interactions);
  await read.save(kept);
  return read;
}
export const render = (card: Card, m = memory()) => {
  const payload = renderCard(card, m);
  expect(messageProblems(payload as unknown as Json)).toEqual([]);
  return payload as unknown as Json;
};
export const renderEmbeds = (card: Card, m = memory()) => {
  const payload = renderEmbedCard(card, m);
  expect(messageProblems(payload as unknown as Json)).toEqual([]);
  return payload;
};
export const buttons = (payload: object) => controlsIn(payload as Json);
export const V2 = 1 << 15;
