/**
 * The lists as Slack data tables, through the real Bolt app against the fake Slack on both simulator
 * profiles: the calendar, the audit log, the videos page and the approvals inbox each answer with a
 * `data_table` whose header and rows say what the simulator and the store hold (the credit ledger's table is
 * in native-blocks.test.ts). The fake Slack refuses a table beyond its documented limits, so none was.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessFixtures } from '../core/approvals/fixtures.js';
import { apiOf } from '../core/publishing/helpers.js';
import { askToPublish, bobApprovesPublishing } from './publish-policy.js';
import { ALICE, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
afterEach(() => w.close());

interface DataTable {
  caption: string;
  rows: { type: string; text?: string; value?: number; elements?: unknown[] }[][];
}

/** The words of a data table cell: raw text as written, rich text as the text of its elements. */
function cellWords(cell: DataTable['rows'][number][number]): string {
  if (cell.type !== 'rich_text') return cell.text ?? '';
  const words: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (typeof o.text === 'string') words.push(o.text);
    if (o.type === 'user') words.push(`@${String(o.user_id)}`);
    if (o.type === 'channel') words.push(`#${String(o.channel_id)}`);
    visit(o.elements);
  };
  visit(cell.elements);
  return words.join('');
}

/** The answer's one data table, as its caption, header and rows of words. */
async function tableOf(command: string): Promise<{ caption: string; header: string[]; rows: string[][] }> {
  const reply = await w.reply((await w.command(command)).responseUrl);
  const tables = (reply.blocks as { type: string }[]).filter((b) => b.type === 'data_table');
  expect(tables, command).toHaveLength(1);
  const [header = [], ...rows] = (tables[0] as unknown as DataTable).rows.map((row) => row.map(cellWords));
  return { caption: (tables[0] as unknown as DataTable).caption, header, rows };
}

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  let id: string;
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
    id = await harnessFixtures(w.h).renderedVideo('Octopus facts');
    // A post on the calendar, scheduled at the service directly (tomorrow, 09:00 UTC).
    await apiOf(w.h).posts.schedule(
      {
        videoId: id,
        platforms: ['youtube'],
        scheduledTime: new Date(w.h.clock.now() + 25 * 3600_000).toISOString(),
      },
      { idempotencyKey: 'list-tables-schedule' },
    );
    await bobApprovesPublishing(w);
    await askToPublish(w, id, 'tiktok');
  });

  it('answers calendar with a table of the posts', async () => {
    const table = await tableOf('calendar');
    expect(table.caption).toBe('Posts');
    expect(table.header).toEqual(['When', 'Platform', 'Status', 'Video']);
    expect(table.rows).toEqual([
      [expect.stringMatching(/^Tomorrow, \d\d:\d\d$/), 'YouTube', '🕒 Scheduled', 'Octopus facts'],
    ]);
  });

  it('answers audit with a table of who did what', async () => {
    const table = await tableOf('audit');
    expect(table.caption).toBe('Audit log');
    expect(table.header).toEqual(['When', 'Who', 'What']);
    // Newest first: the request, then the three settings changes.
    expect(table.rows).toHaveLength(4);
    expect(table.rows[0]).toEqual([
      expect.stringMatching(/^Today, \d\d:\d\d$/),
      `@${ALICE}`,
      expect.stringMatching(/^asked for approval: Publish “Octopus facts” to TikTok/),
    ]);
    expect(table.rows.slice(1).every((row) => row[2]?.startsWith('set '))).toBe(true);
  });

  it('answers videos with a table of the page', async () => {
    const table = await tableOf('videos');
    expect(table.caption).toBe('Videos');
    expect(table.header).toEqual(['Video', 'Model', 'Created', 'MP4', 'Id']);
    const videos = await apiOf(w.h).videos.list({ page: 1, limit: 10 });
    expect(table.rows.map((row) => row[0])).toEqual(videos.items.map((v) => v.name));
    expect(table.rows[0]?.[3]).toBe('MP4');
    expect(table.rows[0]?.[4]).toBe(id);
  });

  it('answers approvals with a table of the pending requests, above their buttons', async () => {
    const table = await tableOf('approvals');
    expect(table.caption).toBe('Pending requests');
    expect(table.header).toEqual(['Request', 'Asked by', 'In', 'Expires', 'You']);
    expect(table.rows).toEqual([
      [
        expect.stringMatching(/^Publish “Octopus facts” to TikTok/),
        'you',
        expect.stringMatching(/^#C/),
        expect.any(String),
        'withdraw',
      ],
    ]);
    expect(w.fake.refusals).toEqual([]);
  });
});
