/** The playground's sender: threads, retried posts, edits after a restart, private notes, refused addresses. */
import { describe, expect, it } from 'vitest';
import { ChatDeliveryError } from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import { videoCard } from './fake-bot.js';
import { eachOnAFreshPlayground, history, pg } from './running-playground.js';

eachOnAFreshPlayground();

describe('sender', () => {
  const conversation = () => pg.adapter.conversation();

  it('threads replies under their card, one level deep', async () => {
    const parent = await pg.adapter.sender.post(conversation(), videoCard(100), { dedupeId: 'outbox:1' });
    const reply = await pg.adapter.sender.post(
      conversation(),
      { title: md`Render done` },
      { dedupeId: 'outbox:2', threadOf: parent },
    );
    await pg.adapter.sender.post(
      conversation(),
      { title: md`Posted` },
      { dedupeId: 'outbox:3', threadOf: reply },
    );
    const views = await history('bob');
    const parentId = parent.split(':')[3];
    expect(views.map((v) => v.threadOf)).toEqual([undefined, parentId, parentId]);
    const res = await fetch(`${pg.url}/?user=bob`);
    const page = await res.text();
    expect(page).toContain('data-testid="thread-toggle">2 replies</button>');
  });

  it('returns the same message for a retried post (same dedupeId)', async () => {
    const first = await pg.adapter.sender.post(conversation(), { title: md`A` }, { dedupeId: 'outbox:9' });
    const second = await pg.adapter.sender.post(conversation(), { title: md`A` }, { dedupeId: 'outbox:9' });
    expect(second).toBe(first);
    expect(await history('alice')).toHaveLength(1);
  });

  it('shows an edit of a card from an earlier run (not in memory) again, at the same address', async () => {
    await pg.adapter.sender.update('playground:local:general:old-1', { title: md`From before the restart` });
    const views = await history('alice');
    expect(views.map((v) => v.id)).toEqual(['old-1']);
    expect(views[0]?.html).toContain('From before the restart');
  });

  it('refuses addresses of another platform, workspace or channel, without retrying', async () => {
    for (const address of ['slack:T1:C1', 'playground:other:general', 'playground:local:nope', 'garbage']) {
      const error = await pg.adapter.sender
        .post(address, { title: md`x` }, { dedupeId: `d-${address}` })
        .catch((e) => e);
      expect(error).toBeInstanceOf(ChatDeliveryError);
      expect(error.retryable).toBe(false);
    }
    await expect(
      pg.adapter.sender.update('playground:local:general', { title: md`x` }),
    ).rejects.toBeInstanceOf(ChatDeliveryError);
  });

  it('notifies one user privately', async () => {
    await pg.adapter.sender.notify?.('playground:local:carol', conversation(), {
      title: md`Your approval expired`,
    });
    expect(await history('alice')).toEqual([]);
    expect((await history('carol'))[0]?.html).toContain('Only visible to you');
    await expect(
      pg.adapter.sender.notify?.('slack:T1:U1', conversation(), { title: md`x` }),
    ).rejects.toBeInstanceOf(ChatDeliveryError);
  });

  it('exposes users with their addresses and conversations', () => {
    expect(pg.adapter.users.map((u) => u.address)).toEqual([
      'playground:local:alice',
      'playground:local:bob',
      'playground:local:carol',
    ]);
    expect(pg.adapter.conversation('launches')).toBe('playground:local:launches');
    expect(() => pg.adapter.conversation('nope')).toThrow(/no channel/);
    expect(pg.adapter.sender.platform).toBe('playground');
  });
});
