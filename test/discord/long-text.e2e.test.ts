/**
 * Full-length text in from Discord, through the REAL discord.js client (gateway) against the fake
 * Discord, the real core and the simulator, on both profiles. Discord's text inputs stop at 4,000 characters,
 * scripts go to 10,000:
 * - the create form's file upload (a Label holding a file upload component; the attachment resolved in the
 *   submission, downloaded from the CDN, here the fake's origin) carries an 8,000-character script whole,
 *   across the form's two pages;
 * - a 5,000-character description is split over "Description (part 1, 2)" and joined in order;
 * - `/reel create file:` (an attachment option) and `from-file:` (its URL) read the script from the file;
 * - the "Make a video from this" message command opens the create form prefilled with the message's text
 *   and its attached .txt;
 * - a file too long or of another type is refused with a message naming it; nothing reaches the API.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAKE_VIDEO_COMMAND } from '../../adapters/discord/file-input.js';
import { DEMO_KEY } from '../support/harness.js';
import { largeBody } from '../support/large-body.js';
import type { FakeInteraction } from './fake-discord.js';
import {
  commandOptions,
  discordWorld,
  IDS,
  interactionPayload,
  type Json,
  textOfMessage,
  type World,
} from './world.js';

let w: World;
afterEach(() => w.close());

function scriptOf(length: number, tag = 'S'): string {
  let text = '';
  for (let i = 1; text.length < length; i++) text += `${tag}${i}: octopuses taste with their arms. `;
  return text.slice(0, length);
}

/** The modal an interaction opened (its first response). */
function modalOf(record: FakeInteraction): Json {
  const callback = record.callbacks[0] as Json;
  if (callback.type !== 9) throw new Error(`no modal: ${JSON.stringify(callback).slice(0, 300)}`);
  return callback.data as Json;
}

/** The inputs of a modal: [custom_id, label, component type]. */
const inputsOf = (modal: Json): [string, string, number][] =>
  (modal.components as Json[])
    .filter((c) => c.type === 18)
    .map((c) => [c.component.custom_id, c.label, c.component.type]);

/** Submits a modal as Alice: text values by custom id, files (fake attachments) by custom id. */
function submitModal(
  opened: FakeInteraction,
  input: { text?: Record<string, string>; files?: Record<string, Json> },
) {
  const modal = modalOf(opened);
  const payload = interactionPayload('modal-submit', 'alice');
  payload.channel_id = opened.channelId;
  const attachments: Record<string, Json> = {};
  payload.data = {
    custom_id: modal.custom_id,
    components: (modal.components as Json[]).map((c, i) => {
      if (c.type !== 18) return { type: c.type, id: i + 1 };
      const inner = c.component as Json;
      const id = inner.custom_id as string;
      if (inner.type === 19) {
        const file = input.files?.[id];
        if (file) attachments[file.id] = file;
        return {
          type: 18,
          id: i + 1,
          component: { type: 19, id: 100 + i, custom_id: id, values: file ? [file.id] : [] },
        };
      }
      if (inner.type === 3)
        return { type: 18, id: i + 1, component: { type: 3, id: 100 + i, custom_id: id, values: [] } };
      const value = input.text?.[id] ?? inner.value ?? '';
      return { type: 18, id: i + 1, component: { type: 4, id: 100 + i, custom_id: id, value } };
    }),
    ...(Object.keys(attachments).length > 0 ? { resolved: { attachments } } : {}),
  };
  return w.send(payload);
}

/** `/reel create` with raw options and resolved attachments. */
function createWith(options: Record<string, unknown>, attachments?: Record<string, Json>) {
  const payload = interactionPayload('chat-input', 'alice');
  payload.data.options = commandOptions(w.fake, ['create'], options);
  if (attachments) payload.data.resolved = { attachments };
  return w.send(payload);
}

/** Fills a form in pages: the first page's answer, then Continue and the next page, until a message comes. */
async function finishPages(first: FakeInteraction): Promise<FakeInteraction> {
  let answer = first;
  for (let page = 0; page < 3; page++) {
    const message = w.answer(answer);
    if (!textOfMessage(message).includes('done')) return answer;
    const next = await w.click(message, 'Continue');
    answer = await submitModal(next, {});
  }
  return answer;
}

/** Create on the confirmation; the script the simulator stored from the one POST /videos. */
async function createAndRead(confirmation: FakeInteraction): Promise<string> {
  const ask = w.answer(confirmation);
  const created = await w.click(ask, /^Create \(/);
  const text = textOfMessage(w.answer(created));
  const posts = (w.h.proxy?.calls ?? []).filter((c) => c.method === 'POST' && c.path === '/videos');
  expect(posts).toHaveLength(1);
  const id = /id `([^`]+)`/.exec(text)?.[1];
  if (!id) throw new Error(`no video id in ${text}`);
  return String((await w.h.deps.apiFor(DEMO_KEY).videos.get(id)).script);
}

const posted = () => (w.h.proxy?.calls ?? []).filter((c) => c.method === 'POST' && c.path === '/videos');

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  beforeEach(async () => {
    w = await discordWorld({ harness: { simulator: { profile }, proxy: true } });
  });

  it('an 8,000-character script uploaded in the create form reaches POST /videos whole', async () => {
    const opened = await w.slash('create');
    const inputs = inputsOf(modalOf(opened));
    expect(inputs.slice(0, 2)).toEqual([
      ['script', 'Script', 4],
      ['script_file', 'Script as a file (.txt, .md)', 19],
    ]);
    const script = scriptOf(8_000);
    const file = w.fake.attach('octopus.txt', script);
    const answer = await finishPages(await submitModal(opened, { files: { script_file: file } }));
    expect(w.fake.downloads).toEqual([file.id]);
    expect((await createAndRead(answer)).length).toBe(8_000);
  });

  it('joins a description split over two inputs, in order', async () => {
    const api = w.h.deps.apiFor(DEMO_KEY);
    const voices = await api.voices.list();
    const video = await api.videos.create(
      { script: 'Octopuses have three hearts and blue blood.', voiceId: String(voices[0]?.id) },
      { idempotencyKey: `long-text-${profile}` },
    );
    const opened = await w.slash('meta', { video: video.id, platform: 'facebook' });
    expect(inputsOf(modalOf(opened))).toEqual([
      ['description', 'Description (max 5000) (part 1)', 4],
      ['description.part2', 'Description (max 5000) (part 2)', 4],
      ['description_file', 'Description (max 5000) as a file (.txt, .md)', 19],
    ]);
    const [a, b] = [scriptOf(4_000, 'A'), scriptOf(900, 'B')];
    const saved = await submitModal(opened, { text: { 'description.part2': b, description: a } });
    expect(textOfMessage(w.answer(saved))).not.toMatch(/too long|needs/);
    const stored = await api.videos.get(video.id);
    expect((stored.posts.facebook as { description: string }).description).toBe(a + b);
  });

  it('create file: and from-file: read the script from an attachment', async () => {
    const script = scriptOf(6_500, 'F');
    const file = w.fake.attach('launch.md', script);
    const byOption = await createWith({ file: file.id }, { [file.id]: file });
    expect(await createAndRead(byOption)).toBe(script);
  });

  it('from-file: takes an attachment URL on the CDN', async () => {
    const script = scriptOf(5_000, 'U');
    const file = w.fake.attach('launch.txt', script);
    const byLink = await createWith({ 'from-file': file.url });
    expect(await createAndRead(byLink)).toBe(script);
  });

  it('"Make a video from this" opens the create form prefilled with the message and its .txt', async () => {
    const registered = w.fake.commands.get(`guild:${IDS.guild}`) ?? [];
    expect(registered.find((c) => c.type === 3)).toMatchObject({ name: MAKE_VIDEO_COMMAND, type: 3 });
    const file = w.fake.attach('notes.txt', 'Second, they have blue blood.');
    const payload = interactionPayload('chat-input', 'alice');
    const target = '1300000000000007777';
    payload.data = {
      id: '1300000000000000301',
      name: MAKE_VIDEO_COMMAND,
      type: 3,
      target_id: target,
      resolved: {
        messages: {
          [target]: {
            id: target,
            channel_id: IDS.channel,
            type: 0,
            content: 'First, octopuses have three hearts.',
            author: {
              id: '1300000000000000502',
              username: 'bob',
              discriminator: '0',
              avatar: null,
              global_name: 'Bob',
            },
            attachments: [file],
            embeds: [],
            mentions: [],
            mention_roles: [],
            mention_everyone: false,
            pinned: false,
            tts: false,
            timestamp: '2026-11-26T11:00:00.000000+00:00',
            edited_timestamp: null,
            flags: 0,
            components: [],
          },
        },
      },
    };
    const opened = await w.send(payload);
    const modal = modalOf(opened);
    const script = (modal.components as Json[]).find((c) => c.component?.custom_id === 'script');
    expect(script?.component.value).toBe(
      'First, octopuses have three hearts.\n\nSecond, they have blue blood.',
    );
    const answer = await finishPages(await submitModal(opened, {}));
    expect(await createAndRead(answer)).toBe(
      'First, octopuses have three hearts.\n\nSecond, they have blue blood.',
    );
  });

  it('refuses a file too long or of another type, naming it; nothing reaches the API', async () => {
    const cases: [Json, RegExp][] = [
      [w.fake.attach('long.txt', scriptOf(12_000)), /long\.txt.*too long.*12000.*limit is 10000/],
      [w.fake.attach('script.pdf', '%PDF-1.7'), /script\.pdf.*isn't a text file/],
    ];
    for (const [file, words] of cases) {
      const opened = await w.slash('create');
      const answer = await finishPages(await submitModal(opened, { files: { script_file: file } }));
      expect(textOfMessage(w.answer(answer))).toMatch(words);
    }
    const byOption = await createWith(
      { file: cases[0]?.[0].id },
      { [String(cases[0]?.[0].id)]: cases[0]?.[0] as Json },
    );
    expect(textOfMessage(w.answer(byOption))).toMatch(/too long/);
    expect(posted()).toEqual([]);
  });

  it('refuses a huge from-file: attachment without downloading it whole', async () => {
    // 64 MiB against a 10,000-character script: refused on its Content-Length, or mid-stream without one.
    for (const declareLength of [true, false]) {
      const body = largeBody(64 * 1024 * 1024, declareLength);
      const file = w.fake.attachLarge('huge.txt', body);
      const answer = await createWith({ 'from-file': file.url });
      expect(textOfMessage(w.answer(answer))).toMatch(/huge\.txt.*too long.*limit is 10000/);
      expect(w.fake.downloads).toContain(file.id);
      expect(body.sent, `declared length: ${declareLength}`).toBeLessThan(body.size / 16);
    }
    expect(posted()).toEqual([]);
  });
});
