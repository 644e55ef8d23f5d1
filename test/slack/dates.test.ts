/**
 * Date ranges as one phrase through Slack: real Bolt, signed slash commands, the answer on response_url.
 * Alice's zone comes from Slack's users.info (Europe/Paris). On Thursday 26 Nov 2026, `--from monday --to
 * friday` and `--from "this week"` are this week (each end dated forward on its own made it a reversed
 * range); the GET /calendar query the simulator receives covers the Paris days in UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
beforeAll(async () => {
  w = await slackWorld({ harness: { proxy: true } });
  // Thursday noon UTC (the harness starts on Monday 23 Nov, 08:00 UTC).
  w.h.clock.advance(Date.parse('2026-11-26T12:00:00Z') - w.h.clock.now());
}, 60_000);
afterAll(() => w.close());

function lastCalendarQuery(): [string | null, string | null] {
  const call = w.h.proxy?.calls.filter((c) => c.method === 'GET' && c.path === '/calendar').at(-1);
  const q = new URLSearchParams(call?.query ?? '');
  return [q.get('startDate'), q.get('endDate')];
}

async function answer(text: string): Promise<string> {
  const sent = await w.command(text);
  expect(sent.status).toBe(200);
  const reply = await w.reply(sent.responseUrl);
  return blocksText(reply.blocks as unknown[]);
}

describe('calendar ranges through Slack', () => {
  it('reads --from monday --to friday as this week, in the caller zone', async () => {
    const text = await answer('calendar --from monday --to friday');
    expect(text).toContain('Nothing scheduled in Mon 23 Nov 2026 – Fri 27 Nov 2026');
    // Monday 00:00 in Paris is Sunday 23:00 UTC; Friday 23:59 in Paris is Friday 22:59 UTC.
    expect(lastCalendarQuery()).toEqual(['2026-11-22', '2026-11-27']);
  });

  it('reads a whole phrase in --from', async () => {
    const text = await answer('calendar --from "this week"');
    expect(text).toContain('Nothing scheduled in Mon 23 Nov 2026 – Sun 29 Nov 2026');
    expect(lastCalendarQuery()).toEqual(['2026-11-22', '2026-11-29']);
    const last = await answer('calendar --from "last 7 days"');
    expect(last).toContain('Nothing scheduled in Fri 20 Nov 2026 – Thu 26 Nov 2026');
  });

  it('refuses explicit dates in the wrong order with the fix', async () => {
    const text = await answer('calendar --from 2026-12-05 --to 2026-12-01');
    expect(text).toContain('Try `--from 2026-12-01 --to 2026-12-05`');
  });
});
