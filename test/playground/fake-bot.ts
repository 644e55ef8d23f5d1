/**
 * A small fake `Bot` for the playground tests: a few commands, clicks and a form that exercise every
 * `Response` kind, recording what it was asked. The real core is wired by `src/main.ts`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlaygroundAdapter, type PlaygroundAdapter } from '../../adapters/playground/index.js';
import type { ActionInput, Bot, FormSubmission } from '../../src/core/dispatch/bot.js';
import type { RequestInfo } from '../../src/core/dispatch/context.js';
import type { CommandSpec } from '../../src/core/parse/command-spec.js';
import type { Card, Response } from '../../src/core/text/cards.js';
import { joinText, md } from '../../src/core/text/text.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { silentLogger } from '../../src/store/silent-logger.js';
import { cardText } from '../support/card-text.js';
import { TestClock } from '../support/test-clock.js';

export { silentLogger };

const spec = (name: string, summary: string): CommandSpec => ({
  name,
  summary,
  options: [],
  examples: [name],
  run: async () => ({ kind: 'none' }),
});

/** A video card like the core's, with the controls the browser test clicks. */
export function videoCard(percent: number, thumbnailUrl?: string): Card {
  const done = percent >= 100;
  const card: Card = {
    title: md`Launch teaser`,
    tone: done ? 'success' : 'progress',
    text: done
      ? md`Generated. Pick a thumbnail, then **render** or schedule.`
      : md`Generating voiceover, visuals and captions…`,
    fields: [
      { label: md`Model`, value: md`pro`, short: true },
      { label: md`Credits`, value: md`12`, short: true },
    ],
    context: md`Requested by Alice · id \`vid_123\``,
  };
  if (!done) card.progress = { percent, label: md`${percent}% · about 2 min left` };
  if (done && thumbnailUrl) {
    card.sections = [1, 2].map((n) => ({
      text: md`**Option ${n}**${n === 1 ? md` ⭐ AI pick, in use` : md``}\n“Hook ${n}”\ngrade A · score 9${n}`,
      image: { url: `${thumbnailUrl}?n=${n}`, alt: `Thumbnail option ${n}` },
      controls: [
        {
          kind: 'button',
          action: 'thumbnail.pick',
          value: `vid_123:t${n}`,
          label: 'Use this',
          style: 'primary',
        },
      ],
    }));
  }
  if (done) {
    card.controls = [
      { kind: 'button', action: 'video.render', value: 'vid_123', label: 'Render', style: 'primary' },
      { kind: 'button', action: 'video.schedule', value: 'vid_123', label: 'Schedule' },
      {
        kind: 'button',
        action: 'video.delete',
        value: 'vid_123',
        label: 'Delete',
        style: 'danger',
        confirm: {
          title: md`Delete this video?`,
          text: md`Credits are not refunded.`,
          confirm: 'Delete',
          deny: 'Keep it',
        },
      },
      { kind: 'link', label: 'Open in app', url: 'https://app.example/videos/vid_123' },
    ];
  }
  return card;
}

export interface FakeBot extends Bot {
  calls: { kind: 'text' | 'action' | 'form'; req: RequestInfo; input: unknown }[];
  /** Makes the next call throw (a dispatcher bug), to check the adapter survives it. */
  failNext: boolean;
}

export function createFakeBot(): FakeBot {
  const calls: FakeBot['calls'] = [];
  const bot: FakeBot = {
    calls,
    failNext: false,
    commands: [
      spec('help', 'Usage and examples'),
      spec('create', 'Create a video'),
      spec('whoami', 'Who you are'),
    ],
    mayAnswerWithForm: () => false,
    handleTooLong(req, typed) {
      calls.push({ kind: 'text', req, input: typed });
      return Promise.resolve(
        message({ title: md`Too long`, tone: 'danger', text: md`over ${typed.cap}` }, 'ephemeral'),
      );
    },
    handleText(req, text) {
      calls.push({ kind: 'text', req, input: text });
      if (bot.failNext) {
        bot.failNext = false;
        return Promise.reject(new Error('dispatcher bug'));
      }
      return Promise.resolve(textAnswer(req, text));
    },
    handleCommand() {
      return Promise.resolve({ kind: 'none' });
    },
    handleAction(req, input: ActionInput) {
      calls.push({ kind: 'action', req, input });
      return Promise.resolve(actionAnswer(req, input));
    },
    handleForm(req, submission: FormSubmission) {
      calls.push({ kind: 'form', req, input: submission });
      return Promise.resolve(formAnswer(submission));
    },
    autocomplete() {
      return Promise.resolve([]);
    },
  };
  return bot satisfies Bot;
}

/** What the fake answers to a typed command. */
function textAnswer(req: RequestInfo, text: string): Response {
  const [word, ...rest] = text.split(' ');
  switch (word) {
    case 'help':
    case '':
      return message({ title: md`reelbot help`, tone: 'info', text: md`Try \`/reel create\`.` }, 'ephemeral');
    case 'whoami':
      return message(
        { title: md`You are ${cardText(String(req.userName))}`, text: cardText(req.user) },
        'ephemeral',
      );
    case 'announce':
      return message({ title: md`Announcement`, text: joinText(rest.map(cardText), ' ') }, 'channel');
    case 'create':
      return rest.length === 0
        ? { kind: 'form', form: createForm() }
        : message({ title: md`Queued` }, 'ephemeral');
    case 'pick':
      return message(
        {
          title: md`Pick a platform`,
          controls: [
            {
              kind: 'select',
              action: 'platform.pick',
              placeholder: 'Choose a platform',
              options: [
                { label: 'YouTube', value: 'youtube' },
                { label: 'TikTok', value: 'tiktok' },
              ],
            },
          ],
        },
        'ephemeral',
      );
    case 'silent':
      return { kind: 'none' };
    case 'home':
      // Several cards answered together, like the core's dashboard.
      return {
        kind: 'message',
        visibility: 'ephemeral',
        card: { title: md`You are ${cardText(String(req.userName))}` },
        more: [videoCard(100), { title: md`Channel subscriptions`, text: md`None yet.` }],
      };
    default:
      return message(
        { title: md`Not done`, tone: 'danger', text: md`Unknown command \`${cardText(String(word))}\`.` },
        'ephemeral',
      );
  }
}

/** What the fake answers to a click. */
function actionAnswer(req: RequestInfo, input: ActionInput): Response {
  switch (input.action) {
    case 'video.render':
      return {
        kind: 'update',
        card: {
          ...videoCard(100),
          title: md`Launch teaser`,
          text: md`Rendering, started by ${cardText(String(req.userName))}…`,
          tone: 'progress',
        },
      };
    case 'video.schedule':
      return { kind: 'form', form: scheduleForm(input.value) };
    case 'video.delete':
      return message(
        { title: md`Deleted`, tone: 'neutral', text: md`🗑️ Deleted by ${cardText(String(req.userName))}.` },
        'channel',
      );
    case 'thumbnail.pick':
      return message(
        { title: md`Thumbnail set`, tone: 'success', text: md`Using ${cardText(input.value)}.` },
        'ephemeral',
      );
    case 'platform.pick':
      return { kind: 'update', card: { title: md`Platform: ${cardText(String(input.choice))}` } };
    default:
      return { kind: 'none' };
  }
}

/** What the fake answers to a submitted form. */
function formAnswer(submission: FormSubmission): Response {
  if (submission.formId === 'create') {
    const script = submission.values.script ?? '';
    if (script.trim().length < 10)
      return { kind: 'form-errors', errors: { script: md`Write at least 10 characters.` } };
    return message(
      { title: cardText(submission.values.name || md`Untitled`), tone: 'info', text: cardText(script) },
      'channel',
    );
  }
  if (submission.formId === 'schedule') {
    return {
      kind: 'update',
      card: {
        title: md`Launch teaser`,
        tone: 'success',
        text: md`Scheduled for ${cardText(String(submission.values.when))}.`,
      },
    };
  }
  return { kind: 'none' };
}

const message = (card: Card, visibility: 'ephemeral' | 'channel'): Response => ({
  kind: 'message',
  visibility,
  card,
});

const createForm = () => ({
  id: 'create',
  title: md`Create a video`,
  submitLabel: 'Create',
  state: 'state-1',
  intro: md`Costs are shown **before** anything is charged.`,
  alert: { level: 'warning' as const, text: md`Each video is charged **50 credits**.` },
  inputs: [
    { kind: 'text' as const, id: 'name', label: 'Name', placeholder: 'Launch teaser' },
    {
      kind: 'text' as const,
      id: 'script',
      label: 'Script',
      multiline: true,
      required: true,
      hint: 'What the voiceover says.',
    },
    {
      kind: 'select' as const,
      id: 'voice',
      label: 'Voice',
      placeholder: 'Choose a voice',
      options: [
        { label: 'Nova', value: 'nova' },
        { label: 'Atlas', value: 'atlas' },
      ],
    },
    {
      kind: 'select' as const,
      id: 'platforms',
      label: 'Post to',
      placeholder: 'Choose platforms',
      multiple: true,
      initial: 'youtube',
      options: [
        { label: 'YouTube', value: 'youtube' },
        { label: 'TikTok', value: 'tiktok' },
        { label: 'Instagram', value: 'instagram' },
      ],
    },
  ],
});

const scheduleForm = (videoId: string) => ({
  id: 'schedule',
  title: 'Schedule',
  submitLabel: 'Schedule',
  state: videoId,
  inputs: [{ kind: 'text' as const, id: 'when', label: 'When', required: true, placeholder: 'tomorrow 9am' }],
});

/** The adapter on a real `createHttpServer` on 127.0.0.1, port 0. */
export async function startPlayground(options: { channels?: string[] } = {}): Promise<{
  bot: FakeBot;
  http: HttpServer;
  adapter: PlaygroundAdapter;
  url: string;
  clock: TestClock;
  close(): Promise<void>;
}> {
  const bot = createFakeBot();
  const clock = new TestClock(Date.UTC(2026, 4, 4, 9, 30));
  const http = createHttpServer({
    logger: silentLogger,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });
  const adapter = createPlaygroundAdapter({
    bot,
    http,
    logger: silentLogger,
    clock,
    channels: options.channels ?? ['general', 'launches'],
  });
  const { url } = await http.listen(0, '127.0.0.1');
  return {
    bot,
    http,
    adapter,
    url,
    clock,
    async close() {
      await adapter.stop();
      await http.close();
    },
  };
}

/** A tiny local image server, so the browser test shows real thumbnails without the internet. */
export async function startImageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const colours: Record<string, [string, string]> = {
    '1': ['#611f69', '#e01e5a'],
    '3': ['#b35900', '#ecb22e'],
  };
  const svg = (n: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="320" viewBox="0 0 180 320">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${(colours[n] ?? ['#1264a3'])[0]}"/>` +
    `<stop offset="1" stop-color="${(colours[n] ?? ['', '#2eb67d'])[1]}"/></linearGradient></defs>` +
    `<rect width="180" height="320" fill="url(#g)"/><text x="90" y="170" font-family="sans-serif" font-size="28" ` +
    `font-weight="700" fill="#fff" text-anchor="middle">Hook ${n}</text></svg>`;
  const server = createServer((req, res) => {
    const n = new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '1';
    res.writeHead(200, { 'content-type': 'image/svg+xml' });
    res.end(svg(n));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/thumb.svg`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
