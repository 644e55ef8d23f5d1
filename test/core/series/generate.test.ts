/** `series generate`: cost first, one charge per click action (double clicks included), 402 in numbers. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { DEMO_KEY, textOf } from '../../support/harness.js';
import {
  button,
  card,
  confirmed,
  hasButton,
  idFrom,
  MINUTE,
  mutations,
  type SeriesHarness,
  seriesHarness,
} from './helpers.js';

let h: SeriesHarness;
let seriesId: string;
beforeEach(async () => {
  h = await seriesHarness();
  seriesId = idFrom(
    await confirmed(
      h,
      h.run('series create "Night Terrors" --source ai_story --model motion_lite --time 21:00'),
    ),
  );
  h.calls.length = 0;
});
afterEach(() => h.close());

const spends = () =>
  h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0 && e.description !== 'spent elsewhere');
const episodes = async () => (await h.api.series.episodes(seriesId, { limit: 100 })).items;

describe('series generate', () => {
  it('shows the cost and balance first and charges nothing before the click', async () => {
    const ask = await h.run('series generate night');
    expect(ask.kind === 'message' && ask.visibility).toBe('ephemeral');
    const c = card(ask);
    expect(c.title).toBe('Generate an episode of “Night Terrors” now?');
    expect(c.text).toContain('This charges **50 credits** (Motion Lite) now');
    expect(c.text).toContain('Your team has **450** credits');
    expect(c.fields).toEqual([
      { label: 'Cost', value: '50', short: true },
      { label: 'Balance', value: '450', short: true },
      { label: 'After', value: '400', short: true },
    ]);
    expect(button(ask, 'series.generate.confirm').label).toBe('Generate (50 credits)');
    expect(mutations(h)).toEqual([]);
    expect(spends()).toHaveLength(1);
  });

  it('generates on confirm, posts the episode card with a generation watch, and charges a double click once', async () => {
    const ask = await h.run('series generate night');
    const value = button(ask, 'series.generate.confirm').value;
    const [a, b] = await Promise.all([
      h.click('series.generate.confirm', value),
      h.click('series.generate.confirm', value),
    ]);
    for (const r of [a, b]) {
      expect(r.kind).toBe('update');
      expect(textOf(r)).toContain('**50 credits** were charged');
    }
    // Later, a stale copy of the card: answered with who generated it, nothing more (one-shot.ts).
    const c = await h.click('series.generate.confirm', value);
    expect(textOf(c)).toContain('Already done by');
    expect(textOf(c)).toContain(': Generating “');
    const all = await episodes();
    expect(all).toHaveLength(2);
    const projectId = all[0]?.projectId as string;
    expect(textOf(a)).toContain(`video \`${projectId}\``);
    // The simulator's ledger: exactly one charge for that video, two spends in all (first episode + this one).
    expect(h.sim.sim.chargesFor(projectId)).toHaveLength(1);
    expect(spends().map((e) => e.credits)).toEqual([-50, -50]);

    const cards = h.chat.channelMessages.filter((p) => p.card.context?.includes(projectId));
    expect(cards).toHaveLength(1);
    expect(cards[0]?.card.title).toBe('Night Terrors — Episode 2');
    expect(cards[0]?.card.context).toContain('Requested by alice');
    expect(await h.store.cards.get(videoCardKey(projectId, h.conversation))).toBeDefined();
    const watches = (await h.store.watches.active()).filter(
      (w) => w.kind === 'generation' && w.target === projectId,
    );
    expect(watches).toHaveLength(1);
    expect(await h.store.users.getLast('playground:W1:alice', 'video')).toBe(projectId);

    // The series watcher sees that episode later and does not post it again.
    const before = h.chat.channelMessages.length;
    await h.advance(10 * MINUTE);
    expect(h.chat.channelMessages.filter((p) => p.card.context?.includes(projectId))).toHaveLength(1);
    expect(h.chat.channelMessages.length).toBe(before);
  });

  it('treats a new confirmation card as a new action', async () => {
    const first = await h.run('series generate night');
    await h.click('series.generate.confirm', button(first, 'series.generate.confirm').value);
    const second = await h.run('series generate night');
    expect(button(second, 'series.generate.confirm').value).not.toBe(
      button(first, 'series.generate.confirm').value,
    );
    await h.click('series.generate.confirm', button(second, 'series.generate.confirm').value);
    expect(await episodes()).toHaveLength(3);
    expect(spends()).toHaveLength(3);
  });

  it('cancels without charging', async () => {
    const ask = await h.run('series generate night');
    const cancelled = await h.click('series.generate.cancel', button(ask, 'series.generate.cancel').value);
    expect(cancelled.kind).toBe('update');
    expect(textOf(cancelled)).toContain('nothing was charged');
    expect(mutations(h)).toEqual([]);
    expect(await episodes()).toHaveLength(1);
  });

  it('answers a 402 with the cost and the balance, and charges nothing', async () => {
    const ask = await h.run('series generate night');
    // Credits go elsewhere between the question and the click.
    h.sim.sim.grantCredits(DEMO_KEY, -(h.sim.sim.balance(DEMO_KEY) - 30), 'spent elsewhere');
    const response = await h.click('series.generate.confirm', button(ask, 'series.generate.confirm').value);
    expect(response.kind).toBe('update');
    const c = card(response);
    expect(c.tone).toBe('danger');
    expect(c.text).toContain('Not enough credits: this costs 50 and your team has 30.');
    expect(c.context).toBe('Nothing was charged.');
    expect(await episodes()).toHaveLength(1);
    expect(spends()).toHaveLength(1);
  });

  it('offers no Generate button when the balance is already too low', async () => {
    h.sim.sim.grantCredits(DEMO_KEY, -(h.sim.sim.balance(DEMO_KEY) - 10), 'spent elsewhere');
    const ask = await h.run('series generate night');
    expect(card(ask).tone).toBe('warning');
    expect(card(ask).text).toContain('That is not enough');
    expect(card(ask).text).toContain(`/reel series edit ${seriesId} --model storyboard`);
    expect(hasButton(ask, 'series.generate.confirm')).toBe(false);
    expect(hasButton(ask, 'series.generate.cancel')).toBe(true);
  });

  it('opens the same confirmation from the series card button', async () => {
    const shown = await h.run('series show night');
    const ask = await h.click('series.generate', button(shown, 'series.generate').value);
    expect(textOf(ask)).toContain('Generate an episode of “Night Terrors” now?');
    expect(mutations(h)).toEqual([]);
  });

  it('refuses a malformed or stale button', async () => {
    expect(textOf(await h.click('series.generate.confirm', seriesId))).toContain('no longer valid');
    expect(textOf(await h.click('series.generate.confirm', 'deadbeefdeadbeefdeadbeef:abcd1234'))).toContain(
      'No series matches',
    );
    expect(mutations(h)).toEqual([]);
  });
});
