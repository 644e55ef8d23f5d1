/**
 * Budgets (DESIGN §5): a series confirmation and a series card say what the series costs a month at its
 * cadence and the day the balance runs out at the pace of ALL active series together, on both simulator
 * profiles: the real core and client against the simulator over HTTP. Storyboard episodes cost 20 credits: a
 * daily series is ≈600 a month, a Mon/Wed/Fri one ≈260, both together ≈860 (20 + 60/7 credits a day).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Response } from '../../../src/core/text/cards.js';
import { DEMO_KEY } from '../../support/harness.js';
import { card, confirmed, type SeriesHarness, seriesHarness } from '../series/helpers.js';

const field = (r: Response, label: string) => card(r).fields?.find((f) => f.label === label)?.value;

describe.each(['spec', 'real'] as const)('series budget on the %s profile', (profile) => {
  let h: SeriesHarness;
  beforeEach(async () => {
    h = await seriesHarness({ simulator: { profile } });
  });
  afterEach(() => h.close());

  const balance = async () => (await h.api.credits.get()).balance;

  it('shows the monthly cost and the run-out date at the pace of both active series', async () => {
    const daily = await confirmed(
      h,
      h.run('series create "Daily" --source ai_story --schedule "daily 09:00 UTC"'),
    );
    expect(card(daily).title).toBe('Series created: Daily');

    const credits = await balance();
    const ask = await h.run('series create "Thrice" --source ai_story --schedule "mon,wed,fri 09:00 UTC"');
    // 2026-11-23 plus floor(credits / (20 + 60/7)) days.
    const until = (c: number) =>
      new Date(Date.parse('2026-11-23T00:00:00Z') + Math.floor(c / (20 + 60 / 7)) * 86_400_000);
    expect(field(ask, 'At this pace')).toBe(
      `≈260 credits a month; at this pace (all 2 active series: ≈860 a month) your ${credits} credits last until ${day(until(credits))}`,
    );
    expect(card(await confirmed(h, ask)).title).toBe('Series created: Thrice');

    const now = await balance();
    const shown = await h.run('series show Daily');
    expect(field(shown, 'Budget')).toBe(
      `≈600 credits a month; at this pace (all 2 active series: ≈860 a month) your ${now} credits last until ${day(until(now))}`,
    );
    expect(h.sim.sim.ledger(DEMO_KEY).at(-1)?.credits).toBeLessThan(0);
  });

  it('a paused series adds nothing to the pace; resume and model-change confirmations show the pace', async () => {
    await confirmed(h, h.run('series create "Daily" --source ai_story --schedule "daily 09:00 UTC"'));
    await confirmed(h, h.run('series create "Thrice" --source ai_story --schedule "mon,wed,fri 09:00 UTC"'));
    await h.run('series pause Daily');
    const credits = await balance();
    const shown = await h.run('series show Daily');
    const days = Math.floor(credits / (60 / 7));
    expect(field(shown, 'Budget')).toBe(
      `≈600 credits a month; at this pace (all 1 active series: ≈260 a month) your ${credits} credits last until ${day(new Date(Date.parse('2026-11-23T00:00:00Z') + days * 86_400_000))}`,
    );

    // The confirmations of a resume and of a model change say it too, with the series as it would be.
    const resume = await h.run('series resume Daily');
    const both = Math.floor(credits / (20 + 60 / 7));
    expect(field(resume, 'Budget')).toBe(
      `≈600 credits a month; at this pace (all 2 active series: ≈860 a month) your ${credits} credits last until ${day(new Date(Date.parse('2026-11-23T00:00:00Z') + both * 86_400_000))}`,
    );
    const pricier = await h.run('series edit Thrice --model motion_lite');
    const alone = Math.floor(credits / (150 / 7));
    expect(field(pricier, 'Budget')).toBe(
      `≈650 credits a month; at this pace your ${credits} credits last until ${day(new Date(Date.parse('2026-11-23T00:00:00Z') + alone * 86_400_000))}`,
    );
  });
});

/** "Tue 15 Dec 2026", as the cards write a day. */
function day(d: Date): string {
  const wd = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  return `${wd} ${d.getUTCDate()} ${mon} ${d.getUTCFullYear()}`;
}
