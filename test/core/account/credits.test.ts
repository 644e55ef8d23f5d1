import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CREDITS_PAGE_ACTION } from '../../../src/core/commands/account/credits.js';
import { count, signed } from '../../../src/core/format/account.js';
import type { Button } from '../../../src/core/text/cards.js';
import { tableLines } from '../../../src/core/text/table.js';
import { cardOf, createWorld, DEMO_KEY, textOf, type World } from './world.js';

const buttons = (r: Awaited<ReturnType<World['run']>>): Button[] =>
  (cardOf(r).controls ?? []).filter((c): c is Button => c.kind === 'button');

describe('credits', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => w.close());

  it('shows the balance and the ledger with signed amounts, types and dates in the caller’s zone', async () => {
    await w.api().videos.create(
      {
        script: 'A short script about the sea and the wind.',
        voiceId: 'voice_aria_en',
        model: 'motion_lite',
      },
      { idempotencyKey: 'credits-test-1' },
    );
    const alice = await w.user('alice');
    await w.store.users.setTimeZone(alice.user, 'Asia/Tokyo');
    const response = await w.run('credits', alice);
    const card = cardOf(response);
    expect(card.title).toBe('Credits: 450');
    expect(card.text).toBe('Your team has **450** credits.');
    // The ledger as a table: the change a number that sorts, its kind, what it was, when (in the caller's zone).
    expect(card.table?.caption).toBe('Credit ledger');
    expect(card.table?.columns.map((c) => c.label)).toEqual(['Change', 'Kind', 'What', 'When']);
    const [spend, grant] = card.table?.rows ?? [];
    expect(spend?.[0]).toEqual({ value: -50, text: '-50' });
    expect([spend?.[1], spend?.[3]]).toEqual(['spending', 'Mon 23 Nov 2026, 17:00']);
    expect(grant?.[0]).toEqual({ value: 500, text: '+500' });
    expect(grant?.[1]).toBe('subscription grant');
    expect(card.context).toContain('Page 1 of 1 · 2 transactions · times in Asia/Tokyo');
    expect(card.controls).toBeUndefined();
  });

  it('pages through a long ledger with buttons that re-read under the clicker’s key', async () => {
    for (let i = 1; i <= 14; i++) w.sim.sim.grantCredits(DEMO_KEY, i, `Top-up #${i}`);
    const first = await w.run('credits');
    expect(cardOf(first).title).toBe(`Credits: ${500 + (14 * 15) / 2}`);
    expect(cardOf(first).context).toContain('Page 1 of 2 · 15 transactions');
    expect(buttons(first).map((b) => [b.label, b.value])).toEqual([['Older →', '2']]);
    // Newest first.
    expect(cardOf(first).table?.rows[0]?.slice(0, 3)).toEqual([
      { value: 14, text: '+14' },
      'purchase',
      'Top-up #14',
    ]);

    const second = await w.click(CREDITS_PAGE_ACTION, '2');
    expect(second.kind).toBe('update');
    expect(cardOf(second).context).toContain('Page 2 of 2');
    const older = tableLines(cardOf(second).table ?? { caption: '', columns: [], rows: [] }).join('\n');
    expect(older).toContain('Top-up #1');
    expect(older).toContain('subscription grant');
    expect(buttons(second).map((b) => [b.label, b.value])).toEqual([['← Newer', '1']]);

    expect(cardOf(await w.run('credits --page 2')).context).toContain('Page 2 of 2');
  });

  it('warns when the balance cannot pay for the cheapest video', async () => {
    w.sim.sim.grantCredits(DEMO_KEY, -490, 'Refund to card');
    const card = cardOf(await w.run('credits'));
    expect(card.tone).toBe('warning');
    expect(card.text).toContain('less than the cheapest video (storyboard, 20)');
  });

  it('answers a bad page with usage and example', async () => {
    for (const [text, words] of [
      ['credits --page 0', '`page` must be between 1 and 100000 (got 0)'],
      ['credits --page two', '`page` must be a whole number, not `two`'],
      ['credits --page 9', 'There is no page 9: the ledger has 1 page.'],
    ] as const) {
      const response = await w.run(text);
      expect(textOf(response)).toContain(words);
      expect(textOf(response)).toContain('Usage: `/reel credits [--page PAGE]`');
    }
  });
});

describe('numbers read plainly (DESIGN §8: a balance of 340 reads "340")', () => {
  it('counts have no thousands separators and signs are ASCII', () => {
    expect(count(340)).toBe('340');
    expect(count(12_000)).toBe('12000');
    expect(count(1_234_567)).toBe('1234567');
    expect(signed(500)).toBe('+500');
    expect(signed(-20)).toBe('-20');
    expect(signed(0)).toBe('0');
  });
});
