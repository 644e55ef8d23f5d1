import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, textOf } from '../support/harness.js';

describe('end-to-end harness', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(async () => h.close());

  it('answers an unknown command with a suggestion and sends nothing to the API', async () => {
    const before = h.sim.sim.ledger(h.sim.keys[0] as string).length;
    const response = await h.run('/reel craete "hello"');
    expect(response.kind).toBe('message');
    expect(textOf(response)).toMatch(/I don't know the command `craete`/);
    expect(h.sim.sim.ledger(h.sim.keys[0] as string).length).toBe(before);
  });

  it('reaches the simulator through the real client with the linked key', async () => {
    const alice = await h.user('alice');
    const me = await h.deps.apiFor((await h.store.keys.get(alice.user))?.apiKey as string).me.get();
    expect(me.team.credits).toBe(500);
  });
});
