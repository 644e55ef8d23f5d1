/**
 * Unlinking a key ends what the poller followed with it, and every place says why — not "after 6 h" or
 * "for a year": the status card, the series a channel followed, the calendar subscription. `unlink` says up
 * front how many will stop.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../src/core/dispatch/context.js';
import { videoCardKey } from '../../src/core/live/live-card.js';
import type { Response } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { cardText, createHarness, type Harness, textOf } from '../support/harness.js';

let h: Harness;
let alice: RequestInfo;
beforeEach(async () => {
  h = await createHarness();
  alice = await h.user('alice');
});
afterEach(() => h.close());

function buttonValue(r: Response, action: string): string {
  if (r.kind !== 'message') throw new Error(`expected a message, got ${r.kind}`);
  const b = r.card.controls?.find((c) => c.kind === 'button' && c.action === action);
  if (b?.kind !== 'button') throw new Error(`no ${action} button`);
  return b.value;
}

const activeOf = async (user: string) =>
  (await h.store.watches.active()).filter((w) => w.owner === user && w.kind !== 'approval');

describe('unlink', () => {
  it('says how many watches stop; each then says the key was unlinked', async () => {
    const ask = await h.run('create --name Octopus Octopuses have three hearts and blue blood.', alice);
    const created = await h.click('video.create.confirm', buttonValue(ask, 'video.create.confirm'), alice);
    const videoId = /id `([^`]+)`/.exec(textOf(created))?.[1] ?? '';
    expect(videoId).not.toBe('');
    await h.run('subscribe calendar', alice);
    const cost = await h.run('series create Nightly --source ai_story --time 21:00', alice);
    await h.click('series.create.confirm', buttonValue(cost, 'series.create.confirm'), alice);
    const cards = (await activeOf(alice.user)).filter((w) => w.kind === 'generation').length;

    const unlinked = await h.run('unlink', alice);
    const said = textOf(unlinked);
    expect(said).toContain(
      `**${cards}** live status cards and **2** channel subscriptions were followed with your key`,
    );
    expect(said).toContain('unless you `/reel link` again before');

    await h.until(async () => (await activeOf(alice.user)).length === 0, {
      stepMs: 30_000,
      maxMs: 3 * 3600_000,
    });

    const card = (await h.store.cards.get(videoCardKey(videoId, h.conversation)))?.card;
    expect(cardText(card ?? { title: md`` })).toContain(
      `Stopped: the key that watched this was unlinked — run \`/reel status ${videoId}\` to watch it with yours`,
    );
    const channel = h.chat.channelMessages.map((m) => cardText(m.card)).join('\n---\n');
    expect(channel).toContain('Stopped following “Nightly”');
    expect(channel).toContain('Stopped: the key that followed this series here was unlinked.');
    expect(channel).toContain(
      'This channel no longer follows the posting calendar: the key that followed the posting calendar here was unlinked.',
    );
    // None of the age-limit wordings.
    expect(channel).not.toMatch(/for a year|Stopped watching after|Subscription ended/);
  });

  it('says nothing about watches when none used the key', async () => {
    const said = textOf(await h.run('unlink', alice));
    expect(said).toContain('Key unlinked');
    expect(said).not.toContain('followed with your key');
  });
});
