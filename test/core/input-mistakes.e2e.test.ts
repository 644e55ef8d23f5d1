/**
 * One place decides which user errors carry the command's usage (`isInputMistake` in src/core/text/messages.ts,
 * applied by the dispatcher). Handlers only throw `userError(code)`: a mistake found in a handler is answered
 * like a parse error (words, usage, example) and nothing is sent; a state of things (not followed, not
 * linked, no such video) is answered without usage. One case per former per-group helper, end to end.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Response } from '../../src/core/text/cards.js';
import { isInputMistake, type MessageCode } from '../../src/core/text/messages.js';
import { DEMO_KEY } from '../support/harness.js';
import { card, type SeriesHarness, seriesHarness } from './series/helpers.js';

const SCRIPT = 'Octopuses have three hearts and blue blood, and each arm can taste what it touches.';

let h: SeriesHarness;
beforeAll(async () => {
  h = await seriesHarness();
  // One (free) video, so page 9 of the list is past its end rather than an empty list.
  await h.api.videos.caption({ videoUrl: 'https://cdn.example.com/a.mp4' }, { idempotencyKey: 'one-video' });
});
afterAll(async () => h.close());
beforeEach(() => {
  h.calls.length = 0;
});

const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);

/** The error card's words, after checking it names the command's usage and its first example. */
function withUsage(response: Response, command: string): string {
  const c = card(response);
  expect(c.tone).toBe('danger');
  const usage = c.fields?.find((f) => f.label === 'Usage')?.value;
  expect(usage).toMatch(new RegExp(`^\`/reel ${command}\\b`));
  expect(c.fields?.find((f) => f.label === 'Example')?.value).toMatch(new RegExp(`^\`/reel ${command}\\b`));
  return c.text ?? '';
}

function withoutUsage(response: Response): string {
  const c = card(response);
  expect(c.tone).toBe('danger');
  expect(c.fields ?? []).toEqual([]);
  return c.text ?? '';
}

describe('input mistakes found by handlers carry usage and an example, and send nothing', () => {
  // [typed, command in the usage line, words, the only calls allowed (reads the check needs)]
  const cases: [string, string, string, string[]][] = [
    // formerly videos/usage.ts
    ['videos --page 9', 'videos', 'There is no page 9: the list has 1 page.', ['videos.list']],
    [`create --voice Zelda ${SCRIPT}`, 'create', 'No voice matches `Zelda`', ['voices.list']],
    // formerly publishing/with-usage.ts
    [`meta last x ${'a'.repeat(281)}`, 'meta', '281 characters; X allows 280', []],
    ['publish last tiktok --privacy private', 'publish', '`--privacy` applies to YouTube only', []],
    ['calendar --from 2026-01-01 --to 2026-12-31', 'calendar', 'That range covers 365 days', []],
    // a reversed explicit range is an input mistake: answered with usage
    ['audit --from 2026-11-20 --to 2026-11-01', 'audit', '`--to` (2026-11-01) is before `--from`', []],
    // formerly series/series-common.ts `checked`
    [
      'series create "Bad one" --source ai_story --time 25:00',
      'series create',
      "`25:00` isn't a posting time",
      [],
    ],
    ['series edit whatever', 'series edit', 'Tell me what to change', []],
    // formerly account/bad-input.ts
    ['subscribe series', 'subscribe', 'Name the series to follow', []],
    ['asset https://cdn.example.com/a.mp4 --type nonsense', 'asset', "`nonsense` isn't a MIME type", []],
    ['settings approvers', 'settings', '`settings approvers` needs a value', []],
    ['help subscirbe', 'help', "I don't know the command `subscirbe`", []],
    ['credits --page 9', 'credits', 'There is no page 9: the ledger has 1 page.', ['credits.get']],
  ];
  it.each(cases)('%s', async (typed, command, words, reads) => {
    expect(withUsage(await h.run(typed), command)).toContain(words);
    expect(h.calls).toEqual(reads);
    expect(spends()).toEqual([]);
  });
});

describe('a state of things is not a typing mistake: no usage', () => {
  it('answers "not followed", "not linked" and "no such video" without usage', async () => {
    expect(withoutUsage(await h.run('unsubscribe calendar'))).toContain("This channel doesn't follow");
    const stranger = await h.user('sam', { key: null });
    // credits used to add usage to any error, `not-linked` included.
    expect(withoutUsage(await h.run('credits', stranger))).toContain('You have not linked an API key');
    // The publish form opener used to add usage to any error; the dispatcher guards it now.
    expect(withoutUsage(await h.run('publish nosuchvideo'))).toContain('No video matches `nosuchvideo`');
  });
});

describe('isInputMistake', () => {
  it('tells typing mistakes from states', () => {
    const typed: MessageCode[] = [
      'missing-arg',
      'bad-when',
      'page-out-of-range',
      'not-found-voice',
      'meta-too-long',
    ];
    const states: MessageCode[] = [
      'not-found-video',
      'not-found-series',
      'not-linked',
      'not-allowed',
      'not-subscribed',
    ];
    for (const code of typed) expect(isInputMistake(code), code).toBe(true);
    for (const code of states) expect(isInputMistake(code), code).toBe(false);
  });
});
