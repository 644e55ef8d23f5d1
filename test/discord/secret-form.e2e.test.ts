/**
 * A secret is never shown again: a link form the service rejected comes back on Discord with its
 * errors, and reopened, the key input is empty — the rejected key is neither re-sent to Discord nor kept in
 * the reopened form. Through the real discord.js Client against the fake Discord.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoTeam } from '../../src/simulator/index.js';
import { launcherOf } from './approvals-read.js';
import { discordWorld, type Json, type World } from './world.js';

const REJECTED_KEY = 'fl_live_rejected_by_the_service_000000000000';

let w: World;
afterEach(() => w.close());

it('reopens a rejected link form without the key filled in', async () => {
  w = await discordWorld({ linked: ['alice'] });
  const link = await w.slash('account link', {}, 'bob');
  const rejected = await w.submit(link, { key: REJECTED_KEY }, 'bob');
  const shown = w.answer(rejected);
  const launcher = launcherOf(shown);
  expect(launcher?.errors).toBe(true);
  const button = shown.components.flatMap((row) => (row.components ?? []) as Json[])[0] as Json;

  const reopened = await w.click(shown, String(button.label), 'bob');
  const modal = (reopened.callbacks[0] as Json).data as Json;
  expect((reopened.callbacks[0] as Json).type).toBe(9);
  const input = (modal.components as Json[])
    .map((c) => c.component as Json)
    .find((c) => c?.custom_id === 'key');
  expect(input).toBeDefined();
  expect(input?.value ?? '').toBe('');
  // Nowhere in what the bot sent Discord.
  expect(JSON.stringify([...w.fake.messages.values()])).not.toContain(REJECTED_KEY);
  expect(JSON.stringify(reopened.callbacks)).not.toContain(REJECTED_KEY);
  expect(await w.h.store.keys.get(w.address('bob'))).toBeUndefined();
});

describe.each(['gateway', 'http'] as const)('no key in the log at debug level (%s)', (mode) => {
  it('links a key of an unknown shape without it reaching a log line', async () => {
    const key = 'Dq7vR2mX9kLp4TnW8sYb3HcJ6fGz5Ae';
    w = await discordWorld({
      mode,
      linked: ['alice'],
      harness: { teams: [{ ...demoTeam(key), name: 'Other' }] },
    });
    const link = await w.slash('account link', {}, 'bob');
    await w.submit(link, { key }, 'bob');
    expect((await w.h.store.keys.get(w.address('bob')))?.teamName).toBe('Other');
    expect(w.h.logs.some((l) => l.includes('"level":20'))).toBe(true);
    expect(w.h.logs.join('')).not.toContain(key);
  });
});
