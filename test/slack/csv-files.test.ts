/**
 * `--csv` answers arrive on Slack as real files, through the REAL Bolt app and its WebClient's
 * `files.uploadV2` (files.getUploadURLExternal → the bytes to the upload URL → files.completeUploadExternal)
 * against the fake Slack, which keeps what was uploaded: the test reads the file back and parses it.
 * A private answer goes to the member's DM with the bot and the caller is told where, privately; a channel
 * answer is uploaded into the channel with the card as its initial comment. Nothing is pasted as text.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from '../../src/core/dispatch/bot.js';
import type { AuditEntry } from '../../src/core/ports/index.js';
import { captionVideos, csvRecords } from '../support/csv.js';
import { DEMO_KEY } from '../support/harness.js';
import type { FakeUpload } from './fake-slack.js';
import { ALICE, address, blocksText, CHANNEL, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
afterEach(() => w.close());

const HOUR = 3_600_000;

/** 150 entries in the channel (far more than 3,500 characters of CSV), one with hostile values. */
async function seedAudit(world: SlackWorld): Promise<AuditEntry[]> {
  const start = world.h.clock.now() - 200 * HOUR;
  const entries: AuditEntry[] = [];
  for (let i = 0; i < 150; i++) {
    const entry: AuditEntry = {
      at: start + i * HOUR,
      conversation: address.channel(),
      actor: address.user(ALICE),
      action: i % 3 === 0 ? 'video.create' : 'video.publish',
      videoId: `vid_${String(i).padStart(4, '0')}`,
      ...(i % 3 === 0 ? { credits: 100 } : {}),
      details:
        i % 3 === 0
          ? { requester: address.user(ALICE) }
          : { platform: 'youtube', postUrl: `https://youtu.be/v${i}`, note: 'a, "quoted" one\nand a line' },
    };
    entries.push(entry);
  }
  // A value a spreadsheet would run: it must arrive as text.
  entries.push({
    at: start + 150 * HOUR,
    conversation: address.channel(),
    actor: address.user(ALICE),
    action: 'video.delete',
    videoId: '=HYPERLINK("http://evil.example","x")',
  });
  for (const e of entries) await world.h.store.audit.record(e);
  // Another channel's entry never leaks into this channel's file.
  await world.h.store.audit.record({ ...entries[0], conversation: address.channel('C0OTHER') } as AuditEntry);
  return entries.reverse(); // newest first, as the file lists them
}

/** Every message text the fake Slack saw (posts, response_url bodies), to prove no CSV went in as text. */
function allText(world: SlackWorld): string {
  const posts = world.fake.messages.map((m) => `${m.text}\n${blocksText(m.blocks)}`);
  const replies = world.fake.responses.map((r) => JSON.stringify(r.body));
  return [...posts, ...replies].join('\n');
}

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  it('audit --csv uploads every row as a file to the caller’s DM and says so privately', async () => {
    const entries = await seedAudit(w);
    const sent = await w.command('audit --csv');
    expect(sent.status).toBe(200);
    const reply = await w.reply(sent.responseUrl);
    expect(reply.response_type).toBe('ephemeral');
    const said = blocksText(reply.blocks as unknown[]);
    expect(said).toContain('151 rows in this channel');
    expect(said).toContain('to our direct messages, so only you can see it');

    const upload = await w.fake.waitFor(
      () => w.fake.uploads.find((u) => u.channel !== undefined),
      'a completed upload',
    );
    expect(upload.filename).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    // The DM: the card was posted to the member's id (Slack's app DM), and the file shared there.
    expect(upload.channel).toBe(ALICE);
    const dmCard = w.fake.messages.find((m) => m.channel === ALICE);
    expect(blocksText(dmCard?.blocks)).toContain('Audit log (CSV)');
    expect(Number(w.fake.callsOf('files.getUploadURLExternal')[0]?.args.length)).toBe(
      Buffer.byteLength(upload.content ?? ''),
    );

    const content = upload.content ?? '';
    expect(content.length).toBeGreaterThan(3_500);
    const zone = /`time` is in ([A-Za-z_/]+)/.exec(said)?.[1] ?? 'missing';
    expect(zone).toBe('Europe/Paris'); // alice's zone on Slack
    const rows = csvRecords(content);
    expect(rows).toHaveLength(entries.length);
    expect(rows.map((r) => [r.time, r.time_utc, r.actor, r.action, r.video, r.credits])).toEqual(
      entries.map((e) => [
        formatInTimeZone(e.at, zone, 'yyyy-MM-dd HH:mm:ss'),
        new Date(e.at).toISOString(),
        e.actor,
        e.action,
        e.videoId?.startsWith('=') ? `'${e.videoId}` : (e.videoId ?? ''),
        e.credits === undefined ? '' : String(e.credits),
      ]),
    );
    // The details column holds the entry's details as JSON, commas, quotes and line breaks included.
    const published = rows.find((r) => r.action === 'video.publish');
    expect(JSON.parse(published?.details ?? '{}')).toMatchObject({ note: 'a, "quoted" one\nand a line' });
    // The injected formula is text: a leading apostrophe, quoted as RFC 4180 wants.
    expect(rows[0]?.video).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(content).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);

    // No message carries the CSV as text.
    expect(allText(w)).not.toContain('"time","time_utc","actor"');
    expect(allText(w)).not.toContain('vid_0001');
  });

  it('a refused upload is said privately, and nothing is pasted as text', async () => {
    await seedAudit(w);
    w.fake.fail('files.getUploadURLExternal', { error: 'not_allowed_token_type' });
    const sent = await w.command('audit --csv');
    const said = blocksText((await w.reply(sent.responseUrl)).blocks as unknown[]);
    expect(said).toContain('151 rows in this channel');
    expect(said).toMatch(/I couldn't send the file `audit-[\d-]+\.csv` \(not_allowed_token_type\)/);
    expect(w.fake.uploads.filter((u) => u.channel !== undefined)).toHaveLength(0);
    expect(allText(w)).not.toContain('"time","time_utc","actor"');
  });

  it('a channel answer is uploaded into the channel with the card as initial comment', async () => {
    await w.close();
    // The same core, its private answers made public, to drive the adapter's channel path.
    const toChannel = (bot: Bot): Bot => ({
      ...bot,
      commands: bot.commands,
      mayAnswerWithForm: (name) => bot.mayAnswerWithForm(name),
      handleText: async (req, text) => {
        const r = await bot.handleText(req, text);
        return r.kind === 'message' ? { ...r, visibility: 'channel' } : r;
      },
    });
    w = await slackWorld({ harness: { simulator: { profile } }, bot: toChannel });
    const names = ['Quarterly, "final" cut', '+1 reasons to watch', 'Plain'];
    await captionVideos({ apiUrl: w.h.sim.url, key: DEMO_KEY, names });
    const sent = await w.command('videos --csv');
    expect(sent.status).toBe(200);
    const upload: FakeUpload = await w.fake.waitFor(
      () => w.fake.uploads.find((u) => u.channel !== undefined),
      'a completed upload',
    );
    expect(upload.channel).toBe(CHANNEL);
    expect(upload.filename).toMatch(/^videos-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(upload.initialComment).toContain('*Videos (CSV)*');
    expect(upload.initialComment).toContain(upload.filename);
    const rows = csvRecords(upload.content ?? '');
    // Newest first; a name a spreadsheet would run arrives as text.
    expect(rows.map((r) => r.name)).toEqual(['Plain', "'+1 reasons to watch", 'Quarterly, "final" cut']);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'id',
      'name',
      'model',
      'created',
      'created_utc',
      'mp4',
      'thumbnail',
    ]);
    // Nothing else was said in the channel or privately: the upload is the answer.
    expect(w.fake.responses).toHaveLength(0);
    expect(allText(w)).not.toContain('created_utc');
  });
});
