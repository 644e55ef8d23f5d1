/**
 * Payload fuzz through the real Slack and Discord adapters: random and mutated slash commands (the fuzz
 * corpus as their text), button clicks with made-up action ids and values, modal submissions, junk bodies,
 * missing or wrong fields, bad signatures. Never a 5xx, never an unhandled rejection; a bad signature is
 * refused; every well-formed command gets an answer (Slack: its response_url or a modal; Discord: the HTTP
 * answer itself). Short form 200 payloads per platform; CHAOS_LONG=1 runs 1,000.
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/lib/stats.js';
import { MODULES } from '../../src/core/commands/index.js';
import { commandOptions, discordWorld, interactionPayload, type Json, type World } from '../discord/world.js';
import { ALICE, BOB, CHANNEL, fixture, type SlackWorld, slackWorld, TEAM } from '../slack/world.js';
import type { DiscordSigner } from '../support/ed25519.js';
import { LONG } from './support/checks.js';
import { fuzzInputs } from './support/fuzz-inputs.js';

const PAYLOADS = LONG ? 1_000 : 200;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const commands = MODULES.flatMap((m) => m.commands ?? []);
const actions = MODULES.flatMap((m) => m.actions ?? []).map((a) => a.action);
const forms = MODULES.flatMap((m) => m.forms ?? []).map((f) => f.id);
const JUNK = [
  '',
  'x',
  '💥',
  'a'.repeat(3000),
  '../../',
  '<b>',
  '\u0000',
  'null',
  '-1',
  '{}',
  '[]',
  'vid_0|v9',
];

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe('Slack payload fuzz', () => {
  let w: SlackWorld;
  afterEach(() => w?.close());

  it(`${PAYLOADS} random, mutated and malformed Slack payloads`, async () => {
    w = await slackWorld();
    const startedAt = Date.now();
    const random = seededRandom(71);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const texts = fuzzInputs({ commands, ids: [] }, PAYLOADS, 72);
    const problems: string[] = [];
    const statuses: Record<string, number> = {};
    const expected: { responseUrl: string; triggerId: string; text: string }[] = [];
    const wave: Promise<void>[] = [];
    for (let i = 0; i < PAYLOADS; i++) {
      const r = random();
      const badSignature = random() < 0.04;
      let body: string;
      let wellFormed = false;
      let responseUrl = '';
      let triggerId = '';
      let note = '';
      if (r < 0.6) {
        const payload = fixture<Record<string, string>>('slash-command.json');
        responseUrl = w.fake.responseUrl();
        triggerId = `${8_000_000_000_000 + i}.7141926741253.${i.toString(16).padStart(32, 'b')}`;
        Object.assign(payload, {
          text: texts[i] ?? '',
          user_id: random() < 0.7 ? ALICE : BOB,
          team_id: TEAM,
          channel_id: CHANNEL,
          response_url: responseUrl,
          trigger_id: triggerId,
        });
        wellFormed = true;
        if (random() < 0.15) {
          // A field missing or garbled.
          const key = pick(Object.keys(payload));
          if (random() < 0.5) delete payload[key];
          else payload[key] = pick(JUNK);
          wellFormed = false;
        }
        body = new URLSearchParams(payload).toString();
      } else if (r < 0.8) {
        const payload = fixture<Record<string, unknown> & { actions: Record<string, unknown>[] }>(
          'block-actions.json',
        );
        payload.response_url = w.fake.responseUrl();
        payload.trigger_id = `${9_000_000_000_000 + i}.7141926741253.${i.toString(16).padStart(32, 'c')}`;
        payload.actions = [
          {
            type: 'button',
            action_id: random() < 0.8 ? `${pick(actions)}|${i}` : pick(JUNK),
            block_id: 'b1',
            text: { type: 'plain_text', text: 'x' },
            value: pick(JUNK),
            action_ts: '1700000012.345678',
          },
        ];
        // Any field may go missing except `user`: Bolt itself answers 500 to a signed block_actions without
        // one (a bare Bolt app does the same), and only Slack can sign a payload.
        if (random() < 0.1) delete payload[pick(Object.keys(payload).filter((k) => k !== 'user'))];
        body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
        note = `block_actions without ${['response_url', 'trigger_id', 'user', 'team', 'channel', 'container', 'message', 'actions', 'api_app_id', 'token', 'type'].filter((k) => !(k in payload)).join(', ') || 'nothing'}`;
      } else if (r < 0.9) {
        const payload = fixture<Record<string, unknown> & { view: Record<string, unknown> }>(
          'view-submission.json',
        );
        payload.view = {
          ...payload.view,
          callback_id: random() < 0.8 ? pick(forms) : pick(JUNK),
          private_metadata: pick(JUNK),
          state: {
            values: {
              [pick(['video', 'when', 'platforms', 'x'])]: {
                a: { type: 'plain_text_input', value: pick(JUNK) },
              },
            },
          },
        };
        // As for clicks, `user` and `view` stay: without them Bolt itself answers 500.
        if (random() < 0.1)
          delete payload[pick(Object.keys(payload).filter((k) => k !== 'user' && k !== 'view'))];
        body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
      } else {
        body = pick([
          pick(JUNK),
          'payload=%7B',
          'payload={"type":"nonsense"}',
          `command=%2Freel&text=${encodeURIComponent(pick(JUNK))}`,
        ]);
      }
      // Sent in waves: Bolt holds a request nobody acknowledges for its 3 s window, so one at a time is slow.
      wave.push(
        (async () => {
          const res = await w.send(
            body,
            'application/x-www-form-urlencoded',
            badSignature ? { secret: 'not-the-secret' } : {},
          );
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status >= 500)
            problems.push(`${res.status} for ${note || body.slice(0, 160)}: ${res.text.slice(0, 120)}`);
          if (badSignature && res.status !== 401) problems.push(`bad signature answered ${res.status}`);
          if (!badSignature && wellFormed) {
            if (res.status !== 200) problems.push(`command answered ${res.status}: ${body.slice(0, 160)}`);
            else expected.push({ responseUrl, triggerId, text: texts[i] ?? '' });
          }
        })(),
      );
      if (wave.length >= 100) await Promise.all(wave.splice(0));
    }
    await Promise.all(wave);
    const sentAt = Date.now();
    // Every well-formed command is answered after its ack: on its response_url, or with a modal.
    const answered = (e: (typeof expected)[number]) =>
      w.fake.responsesTo(e.responseUrl).length > 0 ||
      w.fake.callsOf('views.open').some((c) => c.args.trigger_id === e.triggerId);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !expected.every(answered)) await new Promise((r) => setTimeout(r, 50));
    for (const e of expected.filter((x) => !answered(x)))
      problems.push(`no answer to ${JSON.stringify(e.text).slice(0, 120)}`);
    console.info(
      `adapter fuzz: Slack ${PAYLOADS} payloads, statuses ${JSON.stringify(statuses)}, ${expected.length} commands answered (sent in ${sentAt - startedAt} ms)`,
    );
    expect(problems).toEqual([]);
    expect(unhandled).toEqual([]);
  }, 120_000);
});

describe('Discord payload fuzz (HTTP interactions)', () => {
  let w: World;
  afterEach(() => w?.close());

  it(`${PAYLOADS} random, mutated and malformed Discord interactions`, async () => {
    w = await discordWorld({ mode: 'http' });
    const endpoint = w.endpoint as string;
    const keys = w.keys as DiscordSigner;
    const random = seededRandom(81);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const texts = fuzzInputs({ commands, ids: [] }, PAYLOADS, 82);
    const root = (w.fake.commands.get(`guild:${w.fake.options.guildId}`) ?? []).find(
      (c) => c.name === 'reel',
    );
    const leaves: { path: string[]; options: Json[] }[] = [];
    const walk = (nodes: Json[], path: string[]) => {
      for (const n of nodes) {
        if (n.type === 1) leaves.push({ path: [...path, n.name], options: n.options ?? [] });
        else if (n.type === 2) walk(n.options ?? [], [...path, n.name]);
      }
    };
    walk(root?.options ?? [], []);
    const problems: string[] = [];
    const statuses: Record<string, number> = {};
    const answers: Record<string, number> = {};
    for (let i = 0; i < PAYLOADS; i++) {
      const r = random();
      let payload: Json;
      let command = false;
      if (r < 0.55 && leaves.length > 0) {
        const leaf = pick(leaves);
        const values: Record<string, unknown> = {};
        for (const o of leaf.options) {
          if (random() < 0.5) continue;
          values[o.name] =
            o.type === 4 || o.type === 10
              ? Math.floor(random() * 1e6) - 5
              : o.type === 5
                ? random() < 0.5
                : (texts[i] ?? pick(JUNK)).slice(0, 6000);
        }
        payload = interactionPayload('chat-input', random() < 0.5 ? 'alice' : 'bob');
        payload.data.options = commandOptions(w.fake, leaf.path, values);
        command = true;
      } else if (r < 0.75) {
        payload = interactionPayload('button', 'alice');
        payload.data.custom_id =
          random() < 0.7 ? `r|${pick(actions)}|${pick(JUNK)}`.slice(0, 100) : pick(JUNK);
      } else if (r < 0.85) {
        payload = interactionPayload('modal-submit', 'alice');
        payload.data.custom_id = random() < 0.7 ? `${pick(forms)}|${pick(JUNK)}`.slice(0, 100) : pick(JUNK);
      } else if (r < 0.92) {
        payload = interactionPayload('autocomplete', 'alice');
      } else {
        payload = {
          id: String(1_400_000_000_000 + i),
          application_id: w.fake.options.applicationId,
          token: `t${i}`,
          version: 1,
          type: pick([1, 6, 9, 99, -1, 'x']),
        };
      }
      if (random() < 0.1) {
        // A field missing or garbled.
        const key = pick(Object.keys(payload));
        if (random() < 0.5) delete payload[key];
        else payload[key] = pick([null, 0, pick(JUNK), {}, []]);
        command = false;
      }
      const body = random() < 0.03 ? `{"type": 2, "data": ${pick(JUNK)}` : JSON.stringify(payload);
      if (body !== JSON.stringify(payload)) command = false;
      w.fake.register(payload);
      const badSignature = random() < 0.04;
      const timestamp = String(Math.floor(w.h.clock.now() / 1000));
      const signature = keys.sign(timestamp, badSignature ? `${body} ` : body);
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature-ed25519': signature,
          'x-signature-timestamp': timestamp,
        },
        body,
      });
      const text = await res.text();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 500) problems.push(`${res.status} for ${body.slice(0, 160)}: ${text.slice(0, 160)}`);
      if (badSignature && res.status !== 401) problems.push(`bad signature answered ${res.status}`);
      if (!badSignature && command) {
        const answer = res.status === 200 ? (JSON.parse(text) as { type?: number }) : undefined;
        answers[String(answer?.type)] = (answers[String(answer?.type)] ?? 0) + 1;
        if (![4, 5, 9].includes(answer?.type ?? 0))
          problems.push(`command answered ${res.status} ${text.slice(0, 160)}`);
      }
      w.h.clock.advance(1_000);
    }
    console.info(
      `adapter fuzz: Discord ${PAYLOADS} payloads, statuses ${JSON.stringify(statuses)}, command answers ${JSON.stringify(answers)}`,
    );
    expect(problems).toEqual([]);
    expect(unhandled).toEqual([]);
  }, 120_000);
});
