/**
 * One-shot cards: a confirmation's click replaces the clicked message
 * with the outcome, without its buttons — also when the member looks again — and a later click on the same
 * card (a stale copy) is answered privately "Already done by X at 10:02" and never acts again.
 */
import { expect } from 'vitest';
import type { As, ButtonRef, Reply, ScenarioDriver, ShownCard } from './driver.js';
import { type ApprovalScenario, button, SCRIPT, text } from './scenario-kit.js';

/** The clicked card, as the member sees it now and after looking again: the outcome, none of `actions`. */
async function closedCard(
  d: ScenarioDriver,
  { as, clicked, reply, actions }: { as: As; clicked: ButtonRef; reply: Reply; actions: string[] },
): Promise<ShownCard> {
  expect(reply.kind, text(reply)).toBe('update');
  const offered = (card: ShownCard | undefined) =>
    (card?.buttons ?? []).filter((b) => actions.includes(b.action));
  expect(offered(reply.card)).toEqual([]);
  if (!clicked.message) throw new Error(`the ${clicked.action} button names no message`);
  const again = await d.reload(as, clicked.message);
  expect(again?.title).toBe(reply.card?.title);
  expect(offered(again)).toEqual([]);
  return again as ShownCard;
}

/** A late click on the card: answered privately with who did it, at what time, and what came of it. */
function expectAlreadyDone(d: ScenarioDriver, late: Reply, what: string): void {
  expect(late.kind, text(late)).toBe('message');
  expect(late.visibility).toBe('ephemeral');
  expect(late.card?.title).toBe('Already done');
  expect(late.card?.text).toContain(`Already done by ${d.mention('alice')} at `);
  expect(late.card?.text).toMatch(/ at \d{2}:\d{2}: /);
  expect(late.card?.text).toContain(what);
  expect(late.card?.buttons).toEqual([]);
}

export const ONE_SHOT_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'one-shot: “Create series” acts once; its card loses the buttons; a late click hears who and when',
    async run(d) {
      const ask = await d.run('alice', 'series create "Night facts" --source ai_story');
      expect(ask.visibility, text(ask)).toBe('ephemeral');
      expect(ask.card?.title).toBe('Start the series “Night facts”?');
      const create = button(ask.card, 'series.create.confirm');

      const created = await d.click('alice', create);
      const actions = ['series.create.confirm', 'series.create.cancel'];
      const shown = await closedCard(d, { as: 'alice', clicked: create, reply: created, actions });
      expect(shown.title).toBe('Series created: Night facts');
      const spent = d.fixtures.spends();
      expect(spent).toHaveLength(1);
      const announced = async () =>
        (await d.cards()).filter((c) => c.title === 'Series created: Night facts');
      expect(await announced()).toHaveLength(1);

      // The copy of the card the member still had (before the edit arrived), clicked again.
      const late = await d.click('alice', create);
      expectAlreadyDone(d, late, 'Series created: Night facts');
      await d.advance(1_000);
      expect(await announced()).toHaveLength(1);
      expect(d.fixtures.spends()).toEqual(spent);
      const list = await d.run('alice', 'series list');
      expect(text(list)).toContain('Series (1)');
    },
  },
  {
    name: 'one-shot: a video’s Create answers once; after Cancel, the card’s Create does nothing',
    async run(d) {
      const ask = await d.run('alice', `create ${SCRIPT}`);
      const create = button(ask.card, 'video.create.confirm');
      const creating = await d.click('alice', create);
      const actions = ['video.create.confirm', 'video.create.cancel'];
      const shown = await closedCard(d, { as: 'alice', clicked: create, reply: creating, actions });
      expect(shown.title).toMatch(/^Creating “/);
      expectAlreadyDone(d, await d.click('alice', create), 'Creating “');
      expect(d.fixtures.spends()).toHaveLength(1);

      const other = await d.run('alice', `create ${SCRIPT} Again.`);
      const cancel = button(other.card, 'video.create.cancel');
      const cancelled = await d.click('alice', cancel);
      await closedCard(d, { as: 'alice', clicked: cancel, reply: cancelled, actions });
      const late = await d.click('alice', button(other.card, 'video.create.confirm'));
      expectAlreadyDone(d, late, 'Not created');
      expect(d.fixtures.spends()).toHaveLength(1);
    },
  },
  {
    name: 'one-shot: Delete answers once; a late click of the question hears who deleted it, and when',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Old teaser');
      const ask = await d.run('alice', `delete ${id}`);
      expect(ask.card?.title).toBe('Delete “Old teaser”?');
      const remove = button(ask.card, 'video.delete.confirm');
      const deleted = await d.click('alice', remove);
      const actions = ['video.delete.confirm', 'video.delete.cancel'];
      const shown = await closedCard(d, { as: 'alice', clicked: remove, reply: deleted, actions });
      expect(shown.title).toBe('Deleted “Old teaser”');
      expectAlreadyDone(d, await d.click('alice', remove), 'Deleted “Old teaser”');
    },
  },
];
