/** Live updates: the bot's messages reach each open page over server-sent events. */
import { describe, expect, it } from 'vitest';
import { videoCard } from './fake-bot.js';
import { command, eachOnAFreshPlayground, history, pg, sse, type View } from './running-playground.js';

eachOnAFreshPlayground();

describe('live updates (server-sent events)', () => {
  it('pushes a card edited by the outbox to every open page', async () => {
    const bob = await sse('bob');
    const address = await pg.adapter.sender.post(pg.adapter.conversation(), videoCard(10), {
      dedupeId: 'outbox:7',
    });
    const id = address.split(':')[3];
    const posted = await bob.next((e) => e.event === 'message' && (e.data as View).id === id);
    expect((posted!.data as View).html).toContain('value="10"');
    await pg.adapter.sender.update(address, videoCard(60));
    const updated = await bob.next(
      (e) =>
        e.event === 'message' && (e.data as View).id === id && (e.data as View).html.includes('value="60"'),
    );
    expect(updated?.data).toMatchObject({ id, channel: 'general' });
    expect((await history('carol'))[0]?.html).toContain('value="60"');
    bob.close();
  });

  it("sends private messages only to their owner's pages", async () => {
    const alice = await sse('alice');
    const bob = await sse('bob');
    await command('help', 'alice');
    await command('announce hello', 'carol');
    await alice.next((e) => JSON.stringify(e.data).includes('Announcement'));
    await bob.next((e) => JSON.stringify(e.data).includes('Announcement'));
    const text = (events: { data: unknown }[]) => JSON.stringify(events.map((e) => e.data));
    expect(text(alice.events)).toContain('reelbot help');
    expect(text(bob.events)).not.toContain('reelbot help');
    expect(text(bob.events)).not.toContain('/reel announce');
    alice.close();
    bob.close();
  });

  it('stop() ends the open streams', async () => {
    const stream = await sse('alice');
    await pg.adapter.stop();
    expect(await stream.next(() => false)).toBeUndefined();
  });
});
