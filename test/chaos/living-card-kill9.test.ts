/**
 * One living card per video survives kill -9. The bot runs as a
 * child process (./fixtures/bot-process.ts: the real core, poller and outbox on a file-backed SQLite store)
 * whose recording sender serves Slack, Discord and the playground; the simulator lives in this process. One
 * video is created on Slack and shown on Discord and in the playground (three projections on three platforms);
 * a thumbnail is picked on Discord, the render is clicked in the playground, the post is scheduled from Slack.
 * The bot is SIGKILLed while generating, while the render runs and while the post waits, and restarted on the
 * same database each time. Then: every projection's last delivered card is the video's final state, and each
 * milestone (ready, rendered, posted) is in each projection's thread exactly once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ScaledClock } from '../../bench/lib/virtual-clock.js';
import { projectionsOf, videoState } from '../../src/core/live/projections.js';
import { renderVideoCard } from '../../src/core/live/video-card.js';
import type { Card, Response } from '../../src/core/text/cards.js';
import { generateApiKey, Simulator } from '../../src/simulator/index.js';
import { openStore } from '../../src/store/sqlite-store.js';
import type { BotRequest, ChatRecord } from './fixtures/bot-process.js';
import { BotHost } from './support/bot-host.js';
import { readJsonLines } from './support/rig.js';

const SCRIPT =
  'Three surprising facts about octopuses: they have three hearts, blue blood and taste with their arms.';
// A run takes ~30 s (each restart of the tsx child is most of it); the margin is for a loaded machine.
const TIMEOUT_MS = 90_000;
const SCALE = 60;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Three members of ONE team, each in a conversation on its own platform. */
const PEOPLE = {
  slack: { user: 'slack:T1:U1', conversation: 'slack:T1:C1', userName: 'Sam' },
  discord: {
    user: 'discord:900000000000000100:900000000000000501',
    conversation: 'discord:900000000000000100:900000000000000200',
    userName: 'Dana',
  },
  playground: { user: 'playground:local:alice', conversation: 'playground:local:general', userName: 'Alice' },
} as const;
type Where = keyof typeof PEOPLE;
const WHERE = Object.keys(PEOPLE) as Where[];

const cardOf = (r: Response | undefined): Card | undefined =>
  r && (r.kind === 'message' || r.kind === 'update') ? r.card : undefined;
function buttonValue(card: Card | undefined, action: string, nth = 0): string | undefined {
  const controls = [...(card?.controls ?? []), ...(card?.sections ?? []).flatMap((s) => s.controls ?? [])];
  const values: string[] = [];
  for (const c of controls) if (c.kind === 'button' && c.action === action) values.push(c.value);
  return values[nth];
}
const wallClock = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

describe.concurrent.each(['spec', 'real'] as const)(
  'kill -9 with one video live on three platforms, %s profile',
  (profile) => {
    const dir = mkdtempSync(join(tmpdir(), 'reelbot-living-card-'));
    afterAll(() =>
      process.env.KEEP_LIVING_CARD ? console.info(dir) : rmSync(dir, { recursive: true, force: true }),
    );

    it(
      'every projection converges to the final state, each milestone once per thread',
      async () => {
        const paths = {
          db: join(dir, 'reelbot.sqlite'),
          log: join(dir, 'app.log'),
          chat: join(dir, 'chat.jsonl'),
          attempts: join(dir, 'attempts.jsonl'),
        };
        const clockConfig = { start: Date.UTC(2026, 0, 5, 8, 0, 0), realStart: Date.now(), scale: SCALE };
        const clock = new ScaledClock(clockConfig.start, clockConfig.realStart, SCALE);
        const key = generateApiKey();
        const team = 'Living card team';
        const sim = new Simulator({
          profile,
          clock,
          randomSeed: 5,
          speed: 1,
          teams: [
            {
              name: team,
              credits: 100_000,
              keys: [{ key }],
              accounts: { x: [{ authId: 'acc_x_1', label: '@octo', isDefault: true }] },
            },
          ],
        });
        const server = createServer((req, res) => sim.handle(req, res));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        sim.setPublicBaseUrl(origin);

        const secret = randomBytes(32);
        const setup = openStore({ path: paths.db, secretKey: secret });
        for (const p of Object.values(PEOPLE))
          await setup.keys.put(p.user, {
            apiKey: key,
            keyPrefix: key.slice(0, 12),
            teamId: team,
            teamName: team,
          });
        await setup.close();

        const host = new BotHost({
          dbPath: paths.db,
          secretHex: secret.toString('hex'),
          apiUrl: `${origin}/api/v1`,
          chatPath: paths.chat,
          attemptsPath: paths.attempts,
          logPath: paths.log,
          clock: clockConfig,
          platforms: ['slack', 'discord', 'playground'],
          recordCards: true,
        });
        const deadline = Date.now() + TIMEOUT_MS - 5_000;
        let kills = 0;
        const killAndRestart = async () => {
          await host.kill();
          kills++;
          await host.start();
        };
        /** Asks as `where`'s member until `accept` finds what it needs, like a person retrying. */
        async function ask<T>(
          where: Where,
          msg: { kind: 'text'; text: string } | { kind: 'action'; action: string; value: string },
          accept: (r: Response | undefined) => T | undefined,
        ): Promise<T> {
          const { user, conversation, userName } = PEOPLE[where];
          const trace: string[] = [];
          while (Date.now() < deadline) {
            const answer = await host.ask(
              { user, conversation, userName, ...msg } as Omit<BotRequest, 'id'>,
              15_000,
            );
            const got = accept(answer);
            if (got !== undefined) return got;
            trace.push(
              `${cardOf(answer)?.title ?? answer?.kind ?? 'no answer'}: ${cardOf(answer)?.text ?? ''}`,
            );
            await sleep(200);
          }
          throw new Error(`${where} ${JSON.stringify(msg)} never succeeded: ${trace.slice(-3).join(' | ')}`);
        }
        /** Waits until the recorded chat holds what `done` looks for. */
        async function waitChat(what: string, done: (chat: ChatRecord[]) => boolean): Promise<void> {
          while (Date.now() < deadline) {
            if (done(readJsonLines(paths.chat))) return;
            await sleep(50);
          }
          const seen = readJsonLines(paths.chat).map(
            (r) => `${r.op} ${r.conversation}${r.threadOf ? ' (thread)' : ''}: ${r.title}`,
          );
          throw new Error(
            `never saw ${what}; chat: ${seen.slice(-12).join(' | ')}; bot: ${host.stderr.slice(-500)}`,
          );
        }
        /** The message of the video's card in `where`'s conversation (its first post). */
        const cardMessage = (chat: ChatRecord[], where: Where, name: string) =>
          chat.find(
            (r) =>
              r.op === 'post' &&
              !r.threadOf &&
              r.conversation === PEOPLE[where].conversation &&
              r.title === name,
          )?.message;
        const inEveryThread = (title: (t: string) => boolean) => (chat: ChatRecord[]) =>
          WHERE.every((where) => {
            const card = cardMessage(chat, where, 'Octopus facts');
            return !!card && chat.some((r) => r.op === 'post' && r.threadOf === card && title(r.title));
          });

        const t0 = Date.now();
        const phases: Record<string, number> = {};
        const mark = (phase: string) => {
          phases[phase] = Date.now() - t0;
        };
        try {
          await host.start();

          mark('started');
          // Create on Slack.
          const confirm = await ask(
            'slack',
            { kind: 'text', text: `create --name "Octopus facts" --model motion_pro ${SCRIPT}` },
            (r) => buttonValue(cardOf(r), 'video.create.confirm'),
          );
          const videoId = await ask(
            'slack',
            { kind: 'action', action: 'video.create.confirm', value: confirm },
            (r) => /id `([^`]+)`/.exec(cardOf(r)?.context ?? '')?.[1],
          );
          mark('created');
          // `status` on Discord and in the playground: a projection in each.
          for (const where of ['discord', 'playground'] as const)
            await ask(where, { kind: 'text', text: `status ${videoId}` }, (r) => {
              if (cardOf(r)?.title !== 'Octopus facts') return undefined;
              // Shown while it generates, so every projection has each milestone to tell.
              expect(cardOf(r)?.text, where).toMatch(/% done/);
              return true;
            });
          mark('shown');
          // Killed while generating.
          await killAndRestart();
          mark('restarted');
          await waitChat(
            'ready in every thread',
            inEveryThread((t) => t.startsWith('✅')),
          );

          mark('ready');
          // Pick the third thumbnail from the Discord card as it was last delivered.
          await waitChat('thumbnails on the Discord card', (chat) => {
            const card = cardMessage(chat, 'discord', 'Octopus facts');
            const last = chat.filter((r) => r.message === card && !r.threadOf).at(-1);
            return buttonValue(last?.card, 'thumbnail.pick', 2) !== undefined;
          });
          const chat = readJsonLines(paths.chat);
          const discordCard = cardMessage(chat, 'discord', 'Octopus facts');
          const pickValue = buttonValue(
            chat.filter((r) => r.message === discordCard && !r.threadOf).at(-1)?.card,
            'thumbnail.pick',
            2,
          ) as string;
          await ask('discord', { kind: 'action', action: 'thumbnail.pick', value: pickValue }, (r) =>
            /pick is marked|option 3/.test(cardOf(r)?.text ?? '') ? true : undefined,
          );

          mark('picked');
          // Render from the playground; killed while the render runs.
          await ask('playground', { kind: 'action', action: 'video.render', value: videoId }, (r) =>
            /Rendering|Already rendering/.test(cardOf(r)?.title ?? '') ? true : undefined,
          );
          await killAndRestart();
          await waitChat(
            'rendered in every thread',
            inEveryThread((t) => t.startsWith('🎞️')),
          );

          mark('rendered');
          // Schedule from Slack a few minutes ahead; killed while the post waits.
          await ask('slack', { kind: 'text', text: `meta ${videoId} x Octopus facts are out` }, (r) =>
            /post details saved/.test(cardOf(r)?.title ?? '') ? true : undefined,
          );
          const at = wallClock(Math.ceil((clock.now() + 3 * 60_000) / 60_000) * 60_000);
          await ask('slack', { kind: 'text', text: `schedule ${videoId} x ${at}` }, (r) =>
            cardOf(r)?.title === 'Scheduled' ? true : undefined,
          );
          await killAndRestart();
          await waitChat(
            'posted in every thread',
            inEveryThread((t) => t === 'Posted to X'),
          );

          mark('posted');
          // Let the last card edits go out (nothing pending in the outbox), then stop the bot.
          const db = new Database(paths.db, { readonly: true, fileMustExist: true });
          const outbox = (status: string) =>
            (db.prepare('SELECT count(*) AS n FROM outbox WHERE status = ?').get(status) as { n: number }).n;
          while (outbox('pending') > 0 && Date.now() < deadline) await sleep(50);
          expect({ pending: outbox('pending'), failed: outbox('failed') }).toEqual({ pending: 0, failed: 0 });
          db.close();
          await host.stop();

          // ---- what the database and the platforms hold ----
          const store = openStore({ path: paths.db, secretKey: secret });
          const state = await videoState(store, videoId);
          const projections = await projectionsOf(store, videoId);
          await store.close();
          expect(state?.render?.url).toMatch(/\.mp4$/);
          expect(state?.thumbnails?.pickedBy).toBe('Dana');
          expect(state?.schedule?.statuses).toEqual({ x: 'posted' });
          expect(projections.map((p) => p.conversation).sort()).toEqual(
            WHERE.map((w) => PEOPLE[w].conversation).sort(),
          );

          const final = readJsonLines(paths.chat);
          const expected = renderVideoCard(state as NonNullable<typeof state>);
          const counts: Record<string, Record<string, number>> = {};
          for (const where of WHERE) {
            const conversation = PEOPLE[where].conversation;
            const cards = final.filter(
              (r) => r.op === 'post' && !r.threadOf && r.conversation === conversation,
            );
            expect(
              cards.map((r) => r.title),
              `${where}: one card`,
            ).toEqual(['Octopus facts']);
            const message = cards[0]?.message as string;
            expect(projections.find((p) => p.conversation === conversation)?.message).toBe(message);
            // The last thing delivered to the card is the final state.
            const last = final.filter((r) => r.message === message && !r.threadOf).at(-1);
            expect(last?.card, `${where}: final card`).toEqual(expected);
            const thread = final.filter((r) => r.op === 'post' && r.threadOf === message);
            counts[where] = {
              ready: thread.filter((r) => r.title.startsWith('✅')).length,
              rendered: thread.filter((r) => r.title.startsWith('🎞️')).length,
              posted: thread.filter((r) => r.title === 'Posted to X').length,
              total: thread.length,
            };
          }
          console.info(
            `living card kill -9 (${profile}): ${kills} kills, ${host.starts} starts; thread messages per projection ${JSON.stringify(counts)}; real ms ${JSON.stringify(phases)}`,
          );
          for (const where of WHERE)
            expect(counts[where], where).toEqual({ ready: 1, rendered: 1, posted: 1, total: 3 });
          expect(kills).toBe(3);
          expect(sim.chargesFor(videoId)).toHaveLength(1);
          expect(sim.publishedPosts().filter((p) => p.videoId === videoId)).toHaveLength(1);
        } finally {
          await host.kill();
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
        }
      },
      TIMEOUT_MS,
    );
  },
);
