/**
 * CSV exports in the core: RFC 4180 files whose cells never start a spreadsheet formula (read back by an
 * independent reader, `test/support/csv.ts`), and the `--csv` answers of audit, calendar and videos: a card
 * that says what the file holds, the file as `card.attachment`, nothing of it in the text. Real core, real
 * simulator over HTTP, on both profiles.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../src/core/dispatch/context.js';
import { CSV_MAX_ROWS, csvCell, toCsv, withoutAttachment } from '../../src/core/format/csv.js';
import type { Card, Response } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { captionVideos, csvRecords, parseCsv } from '../support/csv.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';

describe('csv files', () => {
  it('quotes what RFC 4180 needs quoted and ends every record with CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['plain', 'a,b'],
          ['say "hi"', 'two\nlines'],
        ],
      ),
    ).toBe('"a","b"\r\n"plain","a,b"\r\n"say ""hi""","two\nlines"\r\n');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell(42)).toBe('"42"');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    for (const hostile of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      const [[cell]] = parseCsv(toCsv(['v'], [[hostile]])).slice(1) as [[string]];
      expect(cell).toBe(`'${hostile}`);
    }
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    expect(csvCell('a=b')).toBe('"a=b"');
  });

  it('neutralises a formula after a semicolon, comma, tab or line break inside a cell', () => {
    // A spreadsheet in a `;`-separator locale splits a cell at `;` (and some at `,`, tab, line breaks): the
    // piece after it starts a new cell, so a formula there runs unless it is neutralised too.
    const cases: [string, string][] = [
      ['Launch;=HYPERLINK("http://evil.example")', `Launch;'=HYPERLINK("http://evil.example")`],
      ['a,+1', "a,'+1"],
      ['a\t-1', "a\t'-1"],
      ['a\n@SUM(A1)', "a\n'@SUM(A1)"],
      ['a\r\n=1;+2', "a\r\n'=1;'+2"],
      ['2026-12-01', '2026-12-01'],
    ];
    for (const [hostile, shown] of cases) {
      const [[cell]] = parseCsv(toCsv(['v'], [[hostile]])).slice(1) as [[string]];
      expect(cell, JSON.stringify(hostile)).toBe(shown);
    }
    // Every cell is quoted, so no separator inside a cell is ever read unquoted.
    expect(csvCell('x;=1')).toBe(`"x;'=1"`);
  });

  it('reads back exactly what was written, whatever the text', () => {
    const cells = fc.array(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 3, maxLength: 3 }), {
      maxLength: 8,
    });
    fc.assert(
      fc.property(cells, (rows) => {
        const file = toCsv(['x', 'y', 'z'], rows);
        const back = parseCsv(file).slice(1);
        const neutralised = (c: string) =>
          c.replace(/^[=+\-@\t\r]/, "'$&").replace(/([;,\t\r\n])(?=[=+\-@])/g, "$1'");
        expect(back).toEqual(rows.map((r) => r.map(neutralised)));
        for (const cell of back.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]|[;,\t\r\n][=+\-@]/);
        expect(file).toMatch(/^(?:"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*\r\n)+$/);
      }),
    );
  });

  it('a message that cannot carry the file says so instead', () => {
    const card: Card = {
      title: md`Videos (CSV)`,
      text: md`All 3 videos.`,
      attachment: { filename: 'videos-2026-11-26.csv', content: 'id\r\n', contentType: 'text/csv' },
    };
    const shown = withoutAttachment(card);
    expect(shown.attachment).toBeUndefined();
    expect(shown.text).toBe(
      'All 3 videos.\nThis message cannot carry the file `videos-2026-11-26.csv`; run the command again to get it.',
    );
    expect(withoutAttachment({ title: md`x` })).toEqual({ title: 'x' });
  });
});

const cardOf = (r: Response): Card => {
  if (r.kind !== 'message') throw new Error(`expected a message, got ${r.kind}`);
  return r.card;
};

describe.each(['spec', 'real'] as const)('--csv answers on the %s profile', (profile) => {
  let h: Harness;
  let bob: RequestInfo;
  beforeEach(async () => {
    h = await createHarness({ simulator: { profile } });
    bob = await h.user('bob', { timeZone: 'America/Los_Angeles' });
  });
  afterEach(() => h.close());

  it('audit --csv holds at most the documented 1000 rows and says how many', async () => {
    for (let i = 0; i < CSV_MAX_ROWS + 20; i++) {
      await h.store.audit.record({
        at: h.clock.now() - (i + 1) * 60_000,
        conversation: h.conversation,
        actor: bob.user,
        action: 'video.delete',
        videoId: `vid_${i}`,
      });
    }
    const card = cardOf(await h.run('/reel audit --csv', bob));
    expect(card.text).toContain('The newest 1000 rows (the most one file holds)');
    expect(card.text).toContain('Narrow it with `--from`/`--to`');
    const rows = csvRecords(card.attachment?.content ?? '');
    expect(rows).toHaveLength(CSV_MAX_ROWS);
    expect(rows[0]?.video).toBe('vid_0');
    expect(rows.at(-1)?.video).toBe(`vid_${CSV_MAX_ROWS - 1}`);
    expect(card.text).not.toContain('vid_0');
  });

  it('videos --csv with no videos makes no file; --page is refused with it', async () => {
    const empty = cardOf(await h.run('/reel videos --csv', bob));
    expect(empty.attachment).toBeUndefined();
    expect(empty.text).toContain('no file was made');
    const both = cardOf(await h.run('/reel videos --csv --page 2', bob));
    expect(both.tone).toBe('danger');
    expect(both.text).toContain('`--csv` exports every video in one file; leave out `--page`.');
  });

  it('videos --csv --archived lists the archived ones only', async () => {
    const [kept, archived] = await captionVideos({
      apiUrl: h.sim.url,
      key: DEMO_KEY,
      names: ['Kept', 'Old'],
    });
    h.sim.sim.archiveVideo(archived as string);
    const card = cardOf(await h.run('/reel videos --csv --archived', bob));
    expect(card.title).toBe('Archived videos (CSV)');
    const rows = csvRecords(card.attachment?.content ?? '');
    expect(rows.map((r) => r.id)).toEqual([archived]);
    expect(rows.map((r) => r.id)).not.toContain(kept);
    expect(card.attachment?.filename).toMatch(/^videos-archived-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});
