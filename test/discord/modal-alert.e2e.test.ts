/**
 * A form's warning on Discord, through the real discord.js Client against the fake Discord (which refuses
 * modals Discord would refuse): Discord has no alert component, so the warning is a text display of its own
 * above the inputs, a quote led by ⚠️, apart from the intro when the page has room for both, and before it in
 * one text display when it has room for one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { discordWorld, type Json, modalOf, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

const texts = (modal: Json): string[] =>
  (modal.components as Json[]).filter((c) => c.type === 10).map((c) => String(c.content));

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  it('shows the link form’s warning about the key it replaces apart from the intro', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const modal = modalOf(await w.slash('account link'));
    // One input, room for both: the warning first, in a text display of its own.
    const [alert, intro, ...more] = texts(modal);
    expect(more).toEqual([]);
    expect(alert).toMatch(/^> ⚠️ This replaces your current link to \*\*Team\*\* \(key `fl_live_/);
    expect(intro).toMatch(/^Only you see this form\./);
    expect((modal.components as Json[])[0]?.type).toBe(10);
  });

  it('warns what each episode of a series costs on the page with room, before the intro', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
    const opened = await w.slash('series create');
    expect(texts(modalOf(opened))).toEqual([]);
    const voice = (modalOf(opened).components as Json[]).find((c) => c.component?.custom_id === 'voice')
      ?.component.options[0].value;
    const kept = await w.submit(opened, { name: 'Night Terrors', source: 'reddit', voice });
    const page2 = modalOf(await w.click(w.original(kept), 'Continue'));
    // Four inputs leave room for one text display: the warning, then the intro.
    expect(texts(page2)).toEqual([
      expect.stringMatching(
        /^> ⚠️ Each episode is charged \*\*20 credits\*\* \(Storyboard\) when it is generated.*\n\nNothing is created yet/s,
      ),
    ]);
    expect(page2.components[0]).toMatchObject({ type: 10 });
  });
});
