/** Scheduling again, Move / Keep both / Cancel and `reschedule` on the core harness. */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, textOf } from '../../support/harness.js';
import { createCoreDriver } from '../approvals/core-driver.js';
import { apiOf, cardOf, completedVideo } from './helpers.js';
import { defineRescheduleSuite } from './reschedule-scenarios.js';

defineRescheduleSuite('the core harness', (profile) => createCoreDriver({ profile }));

describe.each(['spec', 'real'] as const)('a Move at the service (%s profile)', (profile) => {
  let h: Harness;
  afterEach(() => h?.close());

  const scheduleKeys = () =>
    (h.proxy?.calls ?? [])
      .filter((c) => c.method === 'POST' && c.path === '/posts/schedule')
      .map((c) => c.idempotencyKey);
  const pending = async (id: string) =>
    (await apiOf(h).posts.calendar({ startDate: '2026-11-23', endDate: '2026-11-30', status: 'scheduled' }))
      .filter((e) => e.projectId === id)
      .map((e) => `${e.platform}@${e.scheduledTime.slice(11, 16)}`)
      .sort();

  async function video(): Promise<string> {
    const id = await completedVideo(h, 'Octo');
    await apiOf(h).videos.update(id, { posts: { youtube: { title: 'Octo' }, x: { text: 'Octo' } } });
    return id;
  }

  it('sends each schedule with a key of its own, never the original’s; pressed again, sends nothing', async () => {
    h = await createHarness({ simulator: { profile }, proxy: true });
    const alice = await h.user('alice');
    const id = await video();
    await h.run(`schedule ${id} x,youtube tomorrow 9am`, alice);
    const asked = cardOf(await h.run(`schedule ${id} x tomorrow 11am`, alice));
    expect(asked.title).toBe('Already scheduled');
    const move = asked.controls?.find((c) => c.kind === 'button' && c.action === 'schedule.move');
    if (move?.kind !== 'button') throw new Error('no Move');
    expect(cardOf(await h.click(move.action, move.value, alice)).title).toBe('Moved');
    // The cancel took both platforms: YouTube again at 09:00, then X at 11:00, each with a new key.
    expect(await pending(id)).toEqual(['x@11:00', 'youtube@09:00']);
    const keys = scheduleKeys();
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
    // Pressed again: nothing cancelled, nothing sent.
    await h.click(move.action, move.value, alice);
    expect(scheduleKeys()).toHaveLength(3);
    expect(h.proxy?.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('refuses a Move that would cancel another platform’s post due in a moment, cancelling nothing', async () => {
    h = await createHarness({ simulator: { profile }, proxy: true });
    const alice = await h.user('alice');
    const id = await video();
    await h.run(`schedule ${id} youtube in 1 minute`, alice);
    await h.run(`schedule ${id} x tomorrow 9am`, alice);
    const before = await pending(id);
    const r = await h.run(`reschedule ${id} x tomorrow 11am`, alice);
    expect(textOf(r)).toContain('is due on YouTube at');
    expect(textOf(r)).toContain('too soon to cancel');
    expect(h.proxy?.calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(await pending(id)).toEqual(before);
    expect(before).toContain('x@09:00');
  });
});
