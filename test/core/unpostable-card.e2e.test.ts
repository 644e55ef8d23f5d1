/**
 * A status card the platform refuses (the bot was never invited to the channel) is not lost in silence: the
 * person who asked for it hears, privately, what to do, and `/reel status <id>` then posts it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../src/core/dispatch/context.js';
import { videoCardKey } from '../../src/core/live/live-card.js';
import { ChatDeliveryError } from '../../src/core/ports/index.js';
import type { Response } from '../../src/core/text/cards.js';
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

describe('a status card the channel refuses', () => {
  it('tells the requester to invite the bot and run status, which then posts the card', async () => {
    const ask = await h.run('create --name Octopus Octopuses have three hearts and blue blood.', alice);
    // The platform refuses the card's post for good (Slack `not_in_channel`, Discord 403).
    h.chat.failures.push(new ChatDeliveryError('not_in_channel', false));
    const created = await h.click('video.create.confirm', buttonValue(ask, 'video.create.confirm'), alice);
    const videoId = /id `([^`]+)`/.exec(textOf(created))?.[1] ?? '';
    const key = videoCardKey(videoId, h.conversation);

    expect(h.chat.posts).toEqual([]);
    expect(h.chat.notices.map((n) => ({ user: n.user, text: cardText(n.card) }))).toEqual([
      {
        user: alice.user,
        text: expect.stringContaining(
          `I can’t post in this channel — invite @reelbot (or /invite) and run \`/reel status ${videoId}\`.`,
        ),
      },
    ]);
    // Progress goes on meanwhile; its edits are dropped at once rather than waiting for a card that never comes.
    await h.advance(60_000);
    expect(await h.store.outbox.depth()).toBe(0);

    // Invited now: `status` posts the card, which the watch keeps up to date from then on.
    const status = await h.run(`status ${videoId}`, alice);
    expect(textOf(status)).toContain('I posted a status card in this channel');
    expect((await h.store.cards.get(key))?.message).toBeTruthy();
    expect(h.chat.channelMessages.map((m) => m.card.title)).toEqual(['Octopus']);
    await h.until(() => h.chat.updates.length > 0, { stepMs: 15_000 });
    const message = (await h.store.cards.get(key))?.message;
    expect(h.chat.updates.every((u) => u.message === message)).toBe(true);
  });
});
