import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MODULES } from '../../../src/core/commands/index.js';
import { cardOf, createWorld, textOf, type World } from './world.js';

describe('help', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => w.close());

  it('lists every command once, one line each, grouped', async () => {
    const card = cardOf(await w.run('help'));
    expect(card.title).toBe('reelbot commands');
    const headers = card.sections?.map((s) => s.text?.split('\n')[0]) ?? [];
    expect(headers).toContain('**Team & catalog**');
    expect(headers).toContain('**Channel**');
    const order = ['**Videos**', '**Publishing**', '**Series**', '**Team & catalog**', '**Channel**'];
    expect(headers).toEqual(order.filter((h) => headers.includes(h)));
    const listed = (card.sections ?? []).flatMap((s) =>
      (s.text ?? '')
        .split('\n')
        .slice(1)
        .map((l) => /^• `([^`]+)` — .+/.exec(l)?.[1]),
    );
    const all = MODULES.flatMap((m) => m.commands ?? []).map((c) => c.name);
    expect(listed.sort()).toEqual([...all].sort());
    const team = card.sections?.find((s) => s.text?.startsWith('**Team & catalog**'))?.text ?? '';
    expect(team).toContain('• `credits` — Show the credit balance and recent transactions');
    const channel = card.sections?.find((s) => s.text?.startsWith('**Channel**'))?.text ?? '';
    expect(channel).toContain('• `tz` — ');
    expect(w.calls).toEqual([]);
  });

  it('says where to start for a member without a key', async () => {
    const response = await w.run('/reel', await w.user('newbie', { key: null }));
    expect(cardOf(response).text).toContain('**Start here:** `/reel link`');
  });

  it('shows one command’s usage, options, details and examples', async () => {
    const response = await w.run('help subscribe');
    const text = textOf(response);
    expect(cardOf(response).title).toBe('/reel subscribe');
    expect(text).toContain(
      'Usage: `/reel subscribe [what] [series] [when…] [--platform PLATFORM] [--status posted|failed] [--by BY]`',
    );
    expect(text).toContain('• `<what>` — What to follow (one of calendar, videos, series, digest)');
    expect(text).toContain('• `<series>` — The series to follow (with `series`) (id, name prefix or `last`)');
    expect(text).toContain('`/reel subscribe series "Daily facts"`');
    expect(text).toContain('`calendar`: a message when a scheduled post goes out or fails.');
    expect(textOf(await w.run('help /reel credits'))).toContain(
      '• `--page` — Ledger page (10 entries each) (1–100000)',
    );
  });

  it('never suggests typing a key after link', async () => {
    const text = textOf(await w.run('help link'));
    expect(text).toContain('Usage: `/reel link`');
    expect(text).not.toContain('<key');
    expect(text).toContain('Examples: `/reel link`');
  });

  it('shows a group’s subcommands, and answers an unknown name with a suggestion', async () => {
    const seriesCommands = MODULES.flatMap((m) => m.commands ?? []).filter((c) =>
      c.name.startsWith('series '),
    );
    if (seriesCommands.length > 0) {
      const group = await w.run('help series');
      expect(cardOf(group).title).toBe('/reel series …');
      for (const c of seriesCommands) expect(textOf(group)).toContain(`\`/reel ${c.name}`);
    }
    const unknown = await w.run('help subscirbe');
    expect(textOf(unknown)).toContain(
      "I don't know the command `subscirbe`. Did you mean `/reel help subscribe`?",
    );
    expect(textOf(unknown)).toContain('Usage: `/reel help [command…]`');
  });
});
