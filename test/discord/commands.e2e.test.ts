/**
 * Every core command through Discord, end to end: a `/reel …` interaction dispatched over the fake gateway,
 * received by the real discord.js client, run by the real core against the simulator, answered through the
 * interaction callback. Table-driven; the last test proves the table covers every command the core has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandRoutes } from '../../adapters/discord/commands.js';
import type { FakeInteraction } from './fake-discord.js';
import { videoIdOf } from './read-message.js';
import { discordWorld, textOfMessage, type World } from './world.js';

let w: World;
let video = '';
const MINUTE = 60_000;

beforeAll(async () => {
  w = await discordWorld();
  const confirm = await w.slash('create', {
    script: 'Octopuses have three hearts and blue blood, and they taste with their arms.',
    name: 'Octopus facts',
  });
  await w.click(w.original(confirm), /^Create/);
  const card = w.fake.channelMessages()[0];
  if (!card) throw new Error('no status card');
  await w.h.until(() => JSON.stringify(card.components).includes('Use this'), { maxMs: 20 * MINUTE });
  video = videoIdOf(card) ?? '';
  expect(video).not.toBe('');
}, 60_000);
afterAll(() => w?.close());

interface Row {
  path: string;
  options?: () => Record<string, string | number | boolean>;
  /** 4 = a message, 9 = a modal. */
  type: 4 | 9;
  ephemeral?: boolean;
  text?: RegExp;
  /** A cost card's Confirm button to press next, and what its outcome says. */
  confirm?: { label: RegExp; text: RegExp };
  /** The answer is a refusal in words (nothing to act on at this point of the table). */
  refusal?: true;
}

/** In order: later rows rely on earlier ones (a series exists, a subscription exists, the video is deleted last). */
const ROWS: Row[] = [
  { path: 'help', type: 4, ephemeral: true, text: /reelbot commands/ },
  { path: 'create', type: 9, text: /video/i },
  {
    path: 'create',
    options: () => ({
      script: 'The moon drifts away from Earth by about four centimetres a year.',
      model: 'motion_lite',
    }),
    type: 4,
    ephemeral: true,
    text: /50 credits/,
  },
  { path: 'account link', type: 9, text: /Link your API key/ },
  { path: 'account whoami', type: 4, ephemeral: true, text: /You act as Demo Team/ },
  {
    path: 'account tz',
    options: () => ({ zone: 'Europe/Paris' }),
    type: 4,
    ephemeral: true,
    text: /Time zone set: Europe\/Paris/,
  },
  {
    path: 'account notify',
    options: () => ({ mentions: 'off' }),
    type: 4,
    ephemeral: true,
    text: /Mentions are off/,
  },
  { path: 'status', options: () => ({ video }), type: 4, ephemeral: true, text: /Octopus facts/ },
  { path: 'videos', type: 4, ephemeral: true, text: /Videos/ },
  { path: 'show', options: () => ({ video }), type: 4, ephemeral: true, text: /Script/ },
  {
    path: 'thumbnails',
    options: () => ({ video }),
    type: 4,
    ephemeral: true,
    text: /Thumbnails · Octopus facts/,
  },
  {
    path: 'rename',
    options: () => ({ video, name: 'Octopi' }),
    type: 4,
    ephemeral: true,
    text: /is now “Octopi”/,
  },
  { path: 'render', options: () => ({ video }), type: 4, ephemeral: true, text: /Rendering “Octopi”/ },
  { path: 'meta', options: () => ({ video, platform: 'youtube' }), type: 9, text: /YouTube post details/ },
  {
    path: 'publish',
    options: () => ({ video, platforms: 'youtube' }),
    type: 4,
    ephemeral: true,
    text: /Render it first|Publish/,
  },
  {
    path: 'schedule',
    options: () => ({ video, platforms: 'youtube', when: 'tomorrow 9am' }),
    type: 9,
    text: /YouTube post details/,
  },
  {
    path: 'reschedule',
    options: () => ({ video, when: 'tomorrow 9am' }),
    type: 4,
    ephemeral: true,
    text: /has nothing scheduled to move/,
    refusal: true,
  },
  { path: 'unschedule', options: () => ({ video }), type: 4, ephemeral: true, text: /Nothing to cancel/ },
  { path: 'calendar', type: 4, ephemeral: true, text: /Calendar/ },
  { path: 'slots', type: 4, ephemeral: true, text: /No queue slots/ },
  {
    path: 'caption',
    options: () => ({ url: 'https://example.com/talk.mp4' }),
    type: 4,
    ephemeral: true,
    text: /Captioning “talk.mp4”/,
  },
  { path: 'credits', type: 4, ephemeral: true, text: /Credits: \d+/ },
  // The dashboard: its first card answers, the others follow privately (test/discord/home.e2e.test.ts).
  { path: 'home', type: 4, ephemeral: true, text: /You act as/ },
  { path: 'catalog voices', type: 4, ephemeral: true, text: /Voices/ },
  {
    path: 'catalog options',
    options: () => ({ kind: 'styles' }),
    type: 4,
    ephemeral: true,
    text: /Options: styles/,
  },
  { path: 'catalog accounts', type: 4, ephemeral: true, text: /Connected accounts/ },
  {
    path: 'catalog asset',
    options: () => ({ url: 'https://example.com/logo.png' }),
    type: 4,
    ephemeral: true,
    text: /Asset registered/,
  },
  {
    path: 'analytics',
    options: () => ({ range: '7' }),
    type: 4,
    ephemeral: true,
    text: /Analytics · last 7 days/,
  },
  { path: 'channel settings', type: 4, ephemeral: true, text: /Channel settings/ },
  { path: 'channel audit', type: 4, ephemeral: true, text: /Audit log/ },
  { path: 'approvals', type: 4, ephemeral: true, text: /approval/i },
  {
    path: 'channel subscribe',
    options: () => ({ what: 'calendar' }),
    type: 4,
    ephemeral: false,
    text: /Subscribed: calendar/,
  },
  {
    path: 'channel unsubscribe',
    options: () => ({ what: 'calendar' }),
    type: 4,
    ephemeral: false,
    text: /Unsubscribed/,
  },
  { path: 'series create', type: 9, text: /New series/ },
  {
    path: 'series create',
    options: () => ({ name: 'Night facts', source: 'ai_story', niche: 'fun_facts' }),
    type: 4,
    ephemeral: true,
    text: /Start the series “Night facts”\?/,
    confirm: { label: /^Create series/, text: /Series created: Night facts/ },
  },
  { path: 'series list', type: 4, ephemeral: true, text: /Series \(1\)/ },
  {
    path: 'series show',
    options: () => ({ series: 'Night' }),
    type: 4,
    ephemeral: true,
    text: /\*\*Source\*\*: AI-written story/,
  },
  {
    path: 'series edit',
    options: () => ({ series: 'Night', niche: 'science' }),
    type: 4,
    text: /Night facts/,
  },
  {
    path: 'series pause',
    options: () => ({ series: 'Night' }),
    type: 4,
    ephemeral: false,
    text: /Paused “Night facts”/,
  },
  {
    path: 'series resume',
    options: () => ({ series: 'Night' }),
    type: 4,
    ephemeral: true,
    text: /Resume “Night facts”\?/,
    confirm: { label: /^Resume/, text: /Resumed “Night facts”/ },
  },
  {
    path: 'series generate',
    options: () => ({ series: 'Night' }),
    type: 4,
    ephemeral: true,
    text: /Generate an episode/,
  },
  {
    path: 'series episodes',
    options: () => ({ series: 'Night' }),
    type: 4,
    ephemeral: true,
    text: /Episodes of “Night facts”/,
  },
  {
    path: 'series delete',
    options: () => ({ series: 'Night' }),
    type: 4,
    ephemeral: true,
    text: /Delete series “Night facts”\?/,
  },
  { path: 'delete', options: () => ({ video }), type: 4, ephemeral: true, text: /Delete “Octopi”\?/ },
  { path: 'account unlink', type: 4, ephemeral: true, text: /Key unlinked/ },
];

/** Commands that may answer with a form: their first response is the answer itself. */
const ANSWERED_FIRST = new Set(['create', 'meta', 'publish', 'schedule', 'series create', 'account link']);

const seen: FakeInteraction[] = [];

describe('every /reel command over the gateway', () => {
  for (const row of ROWS) {
    const label = `/reel ${row.path} ${Object.keys(row.options?.() ?? {})
      .map((o) => `${o}:…`)
      .join(' ')}`;
    it(label, async () => {
      const r = await w.slash(row.path, row.options?.() ?? {});
      seen.push(r);
      const first = r.callbacks[0] as { type: number; data: Record<string, unknown> };
      // A command that cannot answer with a form is acknowledged first (5) and answered by an edit; one
      // that may open a form answers in its first response (a modal must be one).
      const answersFirst = ANSWERED_FIRST.has(row.path) || row.type === 9;
      expect(first.type).toBe(answersFirst ? row.type : 5);
      if (row.type === 9) {
        expect(String(first.data.title)).toMatch(row.text ?? /./);
        return;
      }
      const message = w.answer(r);
      const text = textOfMessage(message);
      expect(text).toMatch(row.text ?? /./);
      if (!row.refusal) expect(text).not.toMatch(/^Not done/);
      if (row.ephemeral !== undefined) expect(Boolean(message.flags & 64)).toBe(row.ephemeral);
      if (row.confirm) {
        const done = await w.click(message, row.confirm.label);
        expect(textOfMessage(w.answer(done))).toMatch(row.confirm.text);
      }
    });
  }

  it('covered every command the core declares', () => {
    const routes = new CommandRoutes(w.h.bot.commands);
    const covered = new Set(
      ROWS.map((row) => {
        const parts = row.path.split(' ');
        const route =
          parts.length === 2
            ? routes.find(parts[0], parts[1] as string)
            : routes.find(undefined, parts[0] as string);
        return route?.command;
      }),
    );
    expect([...covered].sort()).toEqual(w.h.bot.commands.map((c) => c.name).sort());
    // One interaction each, each answered exactly once.
    expect(seen.every((r) => r.callbacks.length === 1)).toBe(true);
  });
});
