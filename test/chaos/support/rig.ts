/**
 * The chaos rig: the simulator in THIS process (its ledger survives everything), optionally behind a hostile
 * proxy, and the bot as a child process (../fixtures/bot-process.ts) that can be SIGKILLed at random and
 * restarted on the same SQLite file. Users are driven like people: they type a command or click a button,
 * retry the very same thing when the bot does not answer or answers an error, and wait for the bot's chat
 * notifications before the next step of a create → render → schedule flow.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { seededRandom } from '../../../bench/lib/stats.js';
import { ScaledClock } from '../../../bench/lib/virtual-clock.js';
import type { Card, Response } from '../../../src/core/text/cards.js';
import {
  generateApiKey,
  type SeedTeam,
  Simulator,
  type SimulatorProfile,
} from '../../../src/simulator/index.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { BotRequest, ChatRecord } from '../fixtures/bot-process.js';
import { BotHost } from './bot-host.js';
import { type HostileKnobs, type HostileProxy, startHostileProxy } from './hostile.js';

export interface RigOptions {
  flows: number;
  /** Flows sharing one API key (one team). */
  flowsPerKey?: number;
  /** Clock acceleration shared by the bot and the simulator. */
  scale?: number;
  /** Simulator speed on top of it (job durations ÷ speed). */
  speed?: number;
  /** What the simulator serves (default `spec`; `real`: the real product's shapes). */
  profile?: SimulatorProfile;
  seed?: number;
  /**
   * SIGKILL the bot every minMs..maxMs (real) while flows run, and with `duringRequest` probability also
   * 0–60 ms after a user's request reached it (mid-command: between the API call and the commit).
   */
  kills?: { minMs: number; maxMs: number; duringRequest?: number };
  hostile?: Partial<HostileKnobs>;
  chatFaults?: { rate429: number; rate5xx: number };
  /** Real ms between flow starts. */
  staggerMs?: number;
  /** How far ahead users schedule the post, in clock minutes (default 10). */
  scheduleLeadMin?: number;
  /** Real ms for the whole run. */
  timeoutMs: number;
  log?: (line: string) => void;
}

export interface FlowOutcome {
  n: number;
  user: string;
  conversation: string;
  team: string;
  videoId?: string;
  done: boolean;
  /** User retries (no answer, or an error answer). */
  retries: number;
  /** Why each retry happened (the answer's text), for failure messages. */
  trace: string[];
  error?: string;
}

export interface RigResult {
  flows: FlowOutcome[];
  kills: number;
  starts: number;
  sim: Simulator;
  keys: string[];
  teams: string[];
  proxy?: HostileProxy;
  /** What users saw (a repeated post of one outbox row counted once, as the platform drops it). */
  chat: ChatRecord[];
  /** Every delivery attempt that reached the platform, repeats included. */
  attempts: ChatRecord[];
  outbox: { pending: number; failed: number; errors: string[] };
  paths: { dir: string; db: string; log: string; chat: string; attempts: string };
  realMs: number;
  cleanup(): void;
}

const SCRIPT =
  'Three surprising facts about octopuses: they have three hearts, blue blood and taste with their arms.';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function readJsonLines(path: string): ChatRecord[] {
  if (!existsSync(path)) return [];
  const out: ChatRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as ChatRecord);
    } catch {
      // A line cut by SIGKILL mid-write.
    }
  }
  return out;
}

function cardOf(r: Response | undefined): Card | undefined {
  return r && (r.kind === 'message' || r.kind === 'update') ? r.card : undefined;
}
function buttonValue(card: Card | undefined, action: string): string | undefined {
  const controls = [...(card?.controls ?? []), ...(card?.sections ?? []).flatMap((s) => s.controls ?? [])];
  for (const c of controls) if (c.kind === 'button' && c.action === action) return c.value;
  return undefined;
}
const idFrom = (card: Card | undefined) => /id `([^`]+)`/.exec(card?.context ?? '')?.[1];

/** `YYYY-MM-DD HH:mm` in UTC (users here have no zone set, so they type UTC). */
const wallClock = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

export async function runFlows(o: RigOptions): Promise<RigResult> {
  const log = o.log ?? (() => {});
  const scale = o.scale ?? 60;
  const seed = o.seed ?? 1;
  const random = seededRandom(seed);
  const flowsPerKey = o.flowsPerKey ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-chaos-'));
  const paths = {
    dir,
    db: join(dir, 'reelbot.sqlite'),
    log: join(dir, 'app.log'),
    chat: join(dir, 'chat.jsonl'),
    attempts: join(dir, 'attempts.jsonl'),
  };
  const clockConfig = { start: Date.UTC(2026, 0, 5, 8, 0, 0), realStart: Date.now(), scale };
  const clock = new ScaledClock(clockConfig.start, clockConfig.realStart, scale);

  // ---- the service ----
  const teamCount = Math.ceil(o.flows / flowsPerKey);
  const keys = Array.from({ length: teamCount }, () => generateApiKey());
  const teams: SeedTeam[] = keys.map((key, i) => ({
    name: `Chaos team ${i}`,
    credits: 100_000,
    projectCap: 1000,
    keys: [{ key }],
    accounts: { x: [{ authId: `acc_x_${i}`, label: `@chaos${i}`, isDefault: true }] },
  }));
  const sim = new Simulator({
    profile: o.profile ?? 'spec',
    clock,
    teams,
    randomSeed: seed,
    speed: o.speed ?? 2,
  });
  const server = createServer((req, res) => sim.handle(req, res));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sim.setPublicBaseUrl(origin);
  let apiUrl = `${origin}/api/v1`;
  let proxy: HostileProxy | undefined;
  if (o.hostile) {
    proxy = await startHostileProxy(apiUrl, o.hostile, seed);
    apiUrl = proxy.url;
  }

  // ---- users, linked before the bot first starts ----
  const secret = randomBytes(32);
  const flows: FlowOutcome[] = Array.from({ length: o.flows }, (_, i) => ({
    n: i + 1,
    user: `slack:T1:U${i + 1}`,
    conversation: `slack:T1:C${i + 1}`,
    team: `Chaos team ${Math.floor(i / flowsPerKey)}`,
    done: false,
    retries: 0,
    trace: [],
  }));
  const setup = openStore({ path: paths.db, secretKey: secret });
  for (const [i, f] of flows.entries()) {
    const key = keys[Math.floor(i / flowsPerKey)] as string;
    await setup.keys.put(f.user, {
      apiKey: key,
      keyPrefix: key.slice(0, 12),
      teamId: f.team,
      teamName: f.team,
    });
  }
  await setup.close();

  const host = new BotHost({
    dbPath: paths.db,
    secretHex: secret.toString('hex'),
    apiUrl,
    chatPath: paths.chat,
    attemptsPath: paths.attempts,
    logPath: paths.log,
    clock: clockConfig,
    ...(o.chatFaults ? { chatFaults: { ...o.chatFaults, seed } } : {}),
  });
  const realStart = Date.now();
  const deadline = realStart + o.timeoutMs;
  const closeServers = async () => {
    await proxy?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };
  // Whatever goes wrong, no bot process and no server outlives the run.
  let kills = 0;
  try {
    await host.start();

    // ---- the people ----
    const chatNow = () => readJsonLines(paths.chat);
    async function waitChat(f: FlowOutcome, what: string, match: (r: ChatRecord) => boolean): Promise<void> {
      while (Date.now() < deadline) {
        if (chatNow().some((r) => r.conversation === f.conversation && match(r))) return;
        await sleep(100);
      }
      throw new Error(`flow ${f.n}: never saw ${what}`);
    }
    /** Asks until `accept` finds what it needs in the answer, like a person retrying the same thing. */
    async function attempt<T>(
      f: FlowOutcome,
      what: string,
      msg: () => Omit<BotRequest, 'id'>,
      accept: (r: Response | undefined) => T | undefined,
      options: { giveUp?: (r: Response | undefined) => boolean; max?: number } = {},
    ): Promise<T | undefined> {
      for (let i = 0; Date.now() < deadline && i < (options.max ?? 1000); i++) {
        const answer = await host.ask(msg(), 20_000);
        const got = accept(answer);
        if (got !== undefined) return got;
        f.retries++;
        const why = `${what}: ${cardOf(answer)?.title ?? answer?.kind ?? 'no answer'} ${cardOf(answer)?.text ?? ''}`;
        f.trace.push(why.slice(0, 200));
        log(`flow ${f.n}: retry ${why.slice(0, 160)}`);
        if (options.giveUp?.(answer)) return undefined;
        await sleep(150 + random() * 350);
      }
      if (Date.now() >= deadline)
        throw new Error(`flow ${f.n}: ${what} never succeeded; ${f.trace.slice(-5).join(' | ')}`);
      return undefined;
    }
    const must = <T>(value: T | undefined, what: string, f: FlowOutcome): T => {
      if (value === undefined)
        throw new Error(`flow ${f.n}: ${what} never succeeded; ${f.trace.slice(-5).join(' | ')}`);
      return value;
    };
    /** The value of a clash warning's Schedule anyway button, if the answer is one. */
    const anywayOf = (r: Response | undefined): string | undefined =>
      cardOf(r)
        ?.controls?.flatMap((c) => (c.kind === 'button' && c.action === 'schedule.anyway' ? [c.value] : []))
        .at(0);
    /** The confirm card's request went stale (the bot was down too long): the user starts over. */
    const expired = (r: Response | undefined) => /expired|no longer valid/i.test(cardOf(r)?.text ?? '');

    async function runFlow(f: FlowOutcome): Promise<void> {
      const who = { user: f.user, conversation: f.conversation };
      while (f.videoId === undefined) {
        const confirm = must(
          await attempt(
            f,
            'create',
            () => ({
              ...who,
              kind: 'text',
              text: `create --name "Flow ${f.n}" --model storyboard ${SCRIPT}`,
            }),
            (r) => buttonValue(cardOf(r), 'video.create.confirm'),
          ),
          'create',
          f,
        );
        const created = await attempt(
          f,
          'confirm',
          () => ({ ...who, kind: 'action', action: 'video.create.confirm', value: confirm }),
          (r) => idFrom(cardOf(r)),
          { giveUp: expired },
        );
        if (created !== undefined) f.videoId = created;
      }
      const videoId = f.videoId;
      await waitChat(f, 'ready', (r) => r.op === 'post' && r.title.startsWith('✅'));
      must(
        await attempt(
          f,
          'render',
          () => ({ ...who, kind: 'action', action: 'video.render', value: videoId }),
          (r) => (/Rendering|Already rendering/.test(cardOf(r)?.title ?? '') ? true : undefined),
        ),
        'render',
        f,
      );
      await waitChat(f, 'rendered', (r) => r.op === 'post' && r.title.startsWith('🎞️'));
      must(
        await attempt(
          f,
          'meta',
          () => ({ ...who, kind: 'text', text: `meta ${videoId} x Flow ${f.n} is out now` }),
          (r) => (/post details saved/.test(cardOf(r)?.title ?? '') ? true : undefined),
        ),
        'meta',
        f,
      );
      // Some minutes ahead, on the minute; a retry types the very same time (one user action, one key). When
      // the bot was down so long that the time has passed, the member picks a new one: a new action.
      const lead = (o.scheduleLeadMin ?? 10) * 60_000;
      const inThePast = (r: Response | undefined) => /is in the past/.test(cardOf(r)?.text ?? '');
      let scheduled: true | undefined;
      while (scheduled === undefined) {
        const at = wallClock(Math.ceil((clock.now() + lead) / 60_000) * 60_000);
        const answer = await attempt(
          f,
          'schedule',
          () => ({ ...who, kind: 'text', text: `schedule ${videoId} x ${at}` }),
          // A retry after the first went through is told so ("Already sent this schedule at …", typed-replay.ts).
          // Flows of one key post to its X account minutes apart: a clash, warned before anything is sent, and
          // the member schedules anyway.
          (r) =>
            cardOf(r)?.title === 'Scheduled' || /^Already sent this schedule/.test(cardOf(r)?.text ?? '')
              ? true
              : anywayOf(r),
          { giveUp: inThePast },
        );
        scheduled =
          typeof answer === 'string'
            ? await attempt(
                f,
                'schedule anyway',
                () => ({ ...who, kind: 'action', action: 'schedule.anyway', value: answer }),
                (r) => (/^(Scheduled|Already)/.test(cardOf(r)?.title ?? '') ? true : undefined),
                { giveUp: (r) => inThePast(r) || expired(r) },
              )
            : answer;
      }
      await waitChat(f, 'posted', (r) => r.op === 'post' && r.title === 'Posted to X');
      f.done = true;
    }

    // ---- the killer ----
    let running = true;
    let restarting: Promise<void> | undefined;
    const killAndRestart = (why: string): Promise<void> => {
      restarting ??= (async () => {
        await host.kill();
        kills++;
        log(`kill ${kills} (${why})`);
        await host.start();
      })().finally(() => {
        restarting = undefined;
      });
      return restarting;
    };
    const duringRequest = o.kills?.duringRequest ?? 0;
    if (duringRequest > 0) {
      host.onSend = () => {
        // Not in the first seconds of a process: a kill storm would only test restarts, not requests.
        const settled = Date.now() - host.readyAt > 2000 && host.progress > 0;
        if (running && settled && !restarting && random() < duringRequest) {
          setTimeout(() => void killAndRestart('mid-request'), random() * 60);
        }
      };
    }
    const killer = (async () => {
      if (!o.kills) return;
      while (running && Date.now() < deadline) {
        await sleep(o.kills.minMs + random() * (o.kills.maxMs - o.kills.minMs));
        // A process that has finished nothing yet (a loaded machine) lives on until it has: kills, not progress,
        // would otherwise fill the run until its deadline.
        while (running && host.progress === 0 && Date.now() < deadline) await sleep(50);
        if (!running) break;
        await killAndRestart('timer');
      }
    })();

    const stagger = o.staggerMs ?? 200;
    await Promise.all(
      flows.map(async (f, i) => {
        await sleep(i * stagger);
        try {
          await runFlow(f);
        } catch (error) {
          f.error = String(error);
        }
      }),
    );
    running = false;
    await killer;
    await restarting;

    // Let the bot finish the deliveries still queued (card edits after the last notification), then stop it.
    const db = new Database(paths.db, { readonly: true, fileMustExist: true });
    const pendingNow = () =>
      (db.prepare("SELECT count(*) AS n FROM outbox WHERE status = 'pending'").get() as { n: number }).n;
    for (let i = 0; i < 100 && pendingNow() > 0 && Date.now() < deadline + 10_000; i++) await sleep(100);
    db.close();
    await host.stop();
  } catch (error) {
    await host.kill();
    await closeServers();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const after = new Database(paths.db, { readonly: true, fileMustExist: true });
  const pending = (
    after.prepare("SELECT count(*) AS n FROM outbox WHERE status = 'pending'").get() as { n: number }
  ).n;
  const failedRows = after.prepare("SELECT error FROM outbox WHERE status = 'failed'").all() as {
    error: string;
  }[];
  after.close();

  await closeServers();
  return {
    flows,
    kills,
    starts: host.starts,
    sim,
    keys,
    teams: teams.map((t) => t.name),
    ...(proxy ? { proxy } : {}),
    chat: readJsonLines(paths.chat),
    attempts: readJsonLines(paths.attempts),
    outbox: { pending, failed: failedRows.length, errors: failedRows.map((r) => r.error) },
    paths,
    realMs: Date.now() - realStart,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Chat posts of one flow's conversation matching a predicate. */
export function postsOf(result: RigResult, f: FlowOutcome, match: (r: ChatRecord) => boolean): ChatRecord[] {
  return result.chat.filter((r) => r.op === 'post' && r.conversation === f.conversation && match(r));
}
