/**
 * Full-length text in from Slack, through the REAL Bolt app against the fake Slack, the real core
 * and the simulator, on both profiles. Slack's text inputs stop at 3,000 characters, scripts go to 10,000:
 * - the create form offers a `file_input` (downloaded from `url_private` with the bot token) and the script
 *   split over "Script (part 1…4)" inputs, joined in order;
 * - `create --from-file <permalink>` reads a file shared in the channel (files.info, then the download);
 * - the "Make a video from this" message shortcut opens the create form prefilled with the message's text
 *   and its attached .txt;
 * - a file too long, of another type or not UTF-8 is refused on its input, and nothing reaches the API.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAKE_VIDEO_SHORTCUT } from '../../adapters/slack/listeners/shortcuts.js';
import { DEMO_KEY } from '../support/harness.js';
import { largeBody } from '../support/large-body.js';
import { ALICE, blocksText, CHANNEL, fixture, type SlackWorld, slackWorld, TEAM } from './world.js';

type Json = Record<string, unknown>;
interface InputBlock {
  type: string;
  block_id?: string;
  label?: { text: string };
  optional?: boolean;
  element?: { type: string; action_id: string; initial_value?: string; filetypes?: string[] };
}

let w: SlackWorld;
afterEach(() => w.close());

/** A script of exactly `length` characters, numbered sentences so order and wholeness both show. */
function scriptOf(length: number, tag = 'S'): string {
  let text = '';
  for (let i = 1; text.length < length; i++) text += `${tag}${i}: octopuses taste with their arms. `;
  return text.slice(0, length);
}

/** Submits `view` as Alice: text values by block id, files (Slack file objects) by block id. */
async function submitView(
  view: Json,
  input: { text?: Record<string, string>; files?: Record<string, Json[]> },
): Promise<{ status: number; ack: Json | undefined }> {
  const payload = fixture<Json & { view: Json }>('view-submission.json');
  payload.user = { id: ALICE, username: 'alice', name: 'alice', team_id: TEAM };
  const state: Record<string, Json> = {};
  for (const block of view.blocks as InputBlock[]) {
    if (block.type !== 'input' || !block.block_id || !block.element) continue;
    const { action_id: action, type } = block.element;
    if (type === 'file_input') {
      state[block.block_id] = { [action]: { type, files: input.files?.[block.block_id] ?? [] } };
    } else if (type === 'static_select') {
      state[block.block_id] = { [action]: { type, selected_option: null } };
    } else {
      const value = input.text?.[block.block_id] ?? block.element.initial_value ?? null;
      state[block.block_id] = { [action]: { type, value } };
    }
  }
  payload.view = { ...payload.view, ...view, state: { values: state } };
  const sent = await w.send(
    `payload=${encodeURIComponent(JSON.stringify(payload))}`,
    'application/x-www-form-urlencoded',
  );
  return { status: sent.status, ack: sent.text ? (JSON.parse(sent.text) as Json) : undefined };
}

/** The create form `views.open` showed last. */
async function openedForm(trigger: string): Promise<Json> {
  const open = await w.fake.waitFor(
    () => w.fake.callsOf('views.open').find((c) => c.args.trigger_id === trigger),
    'views.open',
  );
  return open.args.view as Json;
}

const inputs = (view: Json) => (view.blocks as InputBlock[]).filter((b) => b.type === 'input');

/**
 * Presses Create on the confirmation card sent to `responseUrl`; returns the script the simulator stored from
 * the one POST /videos (read back through its API).
 */
async function confirmAndCreate(responseUrl: string): Promise<string> {
  const confirm = await w.reply(responseUrl);
  expect(blocksText(confirm.blocks as unknown[])).toContain('credits');
  const click = await w.click(
    { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
    'video.create.confirm',
  );
  const creating = blocksText((await w.reply(click.responseUrl)).blocks as unknown[]);
  const id = /id `([^`]+)`/.exec(creating)?.[1];
  if (!id) throw new Error(`no video id in: ${creating}`);
  expect(posts()).toHaveLength(1);
  const video = await w.h.deps.apiFor(DEMO_KEY).videos.get(id);
  return String(video.script);
}

/** The POST /videos calls that reached the simulator. */
const posts = () => (w.h.proxy?.calls ?? []).filter((c) => c.method === 'POST' && c.path === '/videos');

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile }, proxy: true } });
  });

  it('offers the script as a file and in four parts; an 8,000-character file reaches POST /videos whole', async () => {
    const sent = await w.command('create');
    const view = await openedForm(sent.triggerId);
    const blocks = inputs(view);
    expect(blocks.slice(0, 5).map((b) => [b.block_id, b.label?.text, b.element?.type])).toEqual([
      ['script', 'Script (part 1)', 'plain_text_input'],
      ['script.part2', 'Script (part 2)', 'plain_text_input'],
      ['script.part3', 'Script (part 3)', 'plain_text_input'],
      ['script.part4', 'Script (part 4)', 'plain_text_input'],
      ['script_file', 'Script as a file (.txt, .md)', 'file_input'],
    ]);
    expect(blocks[4]?.element).toMatchObject({ filetypes: ['txt', 'md'], max_files: 1 });
    // Typing is optional once a file may stand in; the core says when neither came.
    expect(blocks[0]?.optional).toBe(true);

    const script = scriptOf(8_000);
    const file = w.fake.share('octopus.txt', script);
    const submitted = await submitView(view, { files: { script_file: [file] } });
    expect(submitted.ack).toBeUndefined();
    // Downloaded once, with the bot token.
    expect(w.fake.downloads).toEqual([{ id: file.id, token: expect.stringMatching(/^xoxb-/) }]);
    const posted = await confirmAndCreate(sent.responseUrl);
    expect(posted.length).toBe(8_000);
    expect(posted).toBe(script);
  });

  it('joins the split inputs in order', async () => {
    const sent = await w.command('create');
    const view = await openedForm(sent.triggerId);
    const [a, b, c] = [scriptOf(3_000, 'A'), scriptOf(3_000, 'B'), scriptOf(1_500, 'C')];
    const submitted = await submitView(view, { text: { 'script.part3': c, script: a, 'script.part2': b } });
    expect(submitted.ack).toBeUndefined();
    const posted = await confirmAndCreate(sent.responseUrl);
    expect(posted.length).toBe(7_500);
    expect(posted).toBe(a + b + c);
  });

  it('create --from-file reads a file shared in the channel by its permalink', async () => {
    const script = scriptOf(6_500, 'F');
    const file = w.fake.share('launch.md', script);
    const sent = await w.command(`create --from-file ${String(file.permalink)}`);
    expect(await confirmAndCreate(sent.responseUrl)).toBe(script);
    expect(w.fake.callsOf('files.info').map((c) => c.args.file)).toEqual([file.id]);
  });

  it('"Make a video from this" opens the create form prefilled with the message and its .txt', async () => {
    const file = w.fake.share('notes.txt', 'Second, they have blue blood.');
    const payload = {
      type: 'message_action',
      callback_id: MAKE_VIDEO_SHORTCUT,
      trigger_id: '7216000000999.7141926741253.ffffaaaaffffaaaaffffaaaaffffaaaa',
      response_url: w.fake.responseUrl(),
      token: 'gIkuvaNzQIHg97ATvDxqgjtO',
      action_ts: '1700000050.000100',
      message_ts: '1700000040.000100',
      team: { id: TEAM, domain: 'reel-team' },
      user: { id: ALICE, username: 'alice', name: 'alice', team_id: TEAM },
      channel: { id: CHANNEL, name: 'video-team' },
      message: {
        type: 'message',
        user: ALICE,
        ts: '1700000040.000100',
        text: 'First, octopuses have three hearts &amp; taste with their arms.',
        files: [file],
      },
    };
    const sent = await w.send(
      `payload=${encodeURIComponent(JSON.stringify(payload))}`,
      'application/x-www-form-urlencoded',
    );
    expect(sent.status).toBe(200);
    const view = await openedForm(payload.trigger_id);
    expect(view.callback_id).toBe('video.create');
    expect(inputs(view)[0]?.element?.initial_value).toBe(
      'First, octopuses have three hearts & taste with their arms.\n\nSecond, they have blue blood.',
    );
    // The prefilled form submits as it stands.
    await submitView(view, {});
    expect(await confirmAndCreate(payload.response_url)).toBe(
      'First, octopuses have three hearts & taste with their arms.\n\nSecond, they have blue blood.',
    );
  });

  it('refuses a file too long, of another type or not UTF-8 on its input; nothing reaches the API', async () => {
    const sent = await w.command('create');
    const view = await openedForm(sent.triggerId);
    const cases: [Json, RegExp][] = [
      [w.fake.share('long.txt', scriptOf(12_000)), /long\.txt.*too long.*12000.*limit is 10000/],
      [w.fake.share('script.pdf', '%PDF-1.7 binary'), /script\.pdf.*isn't a text file.*\.txt or \.md/],
      [
        w.fake.share('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff])),
        /latin1\.txt.*isn't UTF-8/,
      ],
    ];
    for (const [file, words] of cases) {
      const refused = await submitView(view, { files: { script_file: [file] } });
      expect(refused.ack).toEqual({
        response_action: 'errors',
        errors: { script_file: expect.stringMatching(words) },
      });
    }
    // The wrong type was refused without a download.
    expect(w.fake.downloads.map((d) => d.id)).not.toContain(cases[1]?.[0].id);
    const byLink = await w.command(`create --from-file ${String(cases[0]?.[0].permalink)}`);
    expect(blocksText((await w.reply(byLink.responseUrl)).blocks as unknown[])).toMatch(/too long/);
    expect(posts()).toEqual([]);
    expect(w.fake.responsesTo(sent.responseUrl)).toEqual([]);
  });

  it('refuses a huge shared file of unknown size without downloading it whole', async () => {
    // 64 MiB against a 10,000-character script: refused on its Content-Length, or mid-stream without one.
    for (const declareLength of [true, false]) {
      const body = largeBody(64 * 1024 * 1024, declareLength);
      const file = w.fake.shareLarge('huge.txt', body);
      const sent = await w.command(`create --from-file ${String(file.permalink)}`);
      const reply = blocksText((await w.reply(sent.responseUrl)).blocks as unknown[]);
      expect(reply).toMatch(/huge\.txt.*too long.*limit is 10000/);
      expect(w.fake.downloads.map((d) => d.id)).toContain(file.id);
      expect(body.sent, `declared length: ${declareLength}`).toBeLessThan(body.size / 16);
    }
    expect(posts()).toEqual([]);
  });
});
