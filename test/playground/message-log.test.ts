/** The playground's MessageLog: a bounded list per channel, each member's view of it. */
import { describe, expect, it } from 'vitest';
import { MessageLog } from '../../adapters/playground/message-log.js';
import { md } from '../../src/core/text/text.js';

describe('MessageLog', () => {
  it('keeps a bounded list per channel, dropping the oldest', () => {
    const log = new MessageLog(3);
    for (let i = 1; i <= 5; i++)
      log.add({ kind: 'card', id: `m${i}`, channel: 'general', at: i, card: { title: md`${i}` } });
    log.add({ kind: 'card', id: 'x', channel: 'other', at: 0, card: { title: md`x` } });
    expect(log.visible('general', 'alice').map((m) => m.id)).toEqual(['m3', 'm4', 'm5']);
    expect(log.visible('other', 'alice')).toHaveLength(1);
  });

  it('replaces a card in place', () => {
    const log = new MessageLog();
    log.add({ kind: 'card', id: 'a', channel: 'c', at: 0, card: { title: md`old` } });
    log.add({ kind: 'card', id: 'b', channel: 'c', at: 0, card: { title: md`next` } });
    log.replaceCard('c', 'a', { title: md`new` });
    expect(log.visible('c', 'u').map((m) => (m.kind === 'card' ? m.card.title : ''))).toEqual([
      'new',
      'next',
    ]);
    expect(log.replaceCard('c', 'missing', { title: md`x` })).toBeUndefined();
  });
});
