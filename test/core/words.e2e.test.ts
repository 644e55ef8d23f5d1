/**
 * Words, not internal values (STYLE rule 16), end to end on the core harness: the real simulator
 * over HTTP (both profiles), the real client and store. `series show`, `series list`, the dashboard and the
 * audit read catalog values as the catalogs name them, platforms by name and series and videos by name.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Card, Response } from '../../src/core/text/cards.js';
import type { SimulatorProfile } from '../../src/simulator/index.js';
import { cardText } from '../support/harness.js';
import { confirmed, idFrom, type SeriesHarness, seriesHarness } from './series/helpers.js';

const cardsOf = (r: Response): Card[] =>
  r.kind === 'message' || r.kind === 'update'
    ? [r.card, ...(r.kind === 'message' ? (r.more ?? []) : [])]
    : [];
const textOf = (r: Response): string => cardsOf(r).map(cardText).join('\n');

/** Raw values the cards must never show once they have a name. */
const RAW =
  /\bai_story\b|\bscary_stories\b|\bmotion_pro\b|\bbold_pop\b|\bminecraft_parkour\b|→ youtube|\byoutube\b/;

describe.each(['spec', 'real'] as SimulatorProfile[])('words on the core harness, %s profile', (profile) => {
  let h: SeriesHarness;
  beforeEach(async () => {
    h = await seriesHarness({ simulator: { profile } });
  });
  afterEach(() => h.close());

  const create = async (rest: string) => idFrom(await confirmed(h, h.run(`series create ${rest}`)));

  it('series show and series list name catalog values and platforms as the forms do', async () => {
    const id = await create(
      '"Night Terrors" --source ai_story --niche scary_stories --model motion_pro --destination youtube ' +
        '--captions bold_pop --background minecraft_parkour --language fr',
    );
    const show = textOf(await h.run('series show night'));
    expect(show).toContain('Source: AI-written story');
    expect(show).toContain('Niche: Scary stories');
    expect(show).toContain('Model: Motion Pro · 100 credits per episode');
    expect(show).toContain('Posts to: YouTube');
    expect(show).toContain('Captions: Bold pop');
    expect(show).toContain('Background: Minecraft parkour');
    expect(show).toContain('Language: French');
    expect(show).not.toMatch(RAW);

    const list = textOf(await h.run('series list'));
    expect(list).toContain('**Night Terrors** — ▶️ active · Scary stories · source AI-written story');
    expect(list).not.toMatch(RAW);
    expect(id).toBeTruthy();
  });

  it('the dashboard names a followed series, never its id', async () => {
    const id = await create('"Night Terrors" --source ai_story');
    const dashboard = cardsOf(await h.run('home')).find((c) => c.title === 'Channel subscriptions');
    const text = dashboard ? cardText(dashboard) : '';
    expect(text).toContain('the series **Night Terrors**');
    expect(text).not.toContain(id);
  });

  it('the audit names series and episodes, and its credits spent include every episode', async () => {
    const id = await create('"Night Terrors" --source ai_story --model motion_lite');
    const ask = cardsOf(await h.run('series generate night'))[0];
    const go = ask?.controls?.find((c) => c.kind === 'button' && c.action === 'series.generate.confirm');
    if (go?.kind !== 'button') throw new Error('no Generate button');
    await h.click(go.action, go.value);
    const audit = await h.run('audit');
    const text = textOf(audit);
    expect(text).toContain('started the series “Night Terrors” (50 credits for its first episode)');
    expect(text).toMatch(/generated an episode \(“[^”]+”\) of the series “Night Terrors” \(50 credits\)/);
    // Both episodes were charged: the first at creation, the second by `series generate`.
    expect(text).toContain('· 100 credits spent');
    expect(text).not.toContain(id);
    expect(text).not.toMatch(/[0-9a-f]{24}/);
  });
});
