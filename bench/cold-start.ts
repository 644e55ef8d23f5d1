/**
 * Benchmark 4, cold start: spawns the bot as `npm start` runs it (the compiled bot, `node
 * --enable-source-maps dist/main.js`, built once first; a fresh temp REELBOT_DATA_DIR) in three configurations,
 * times spawn → first `/healthz` 200, then reads the resident memory after 10 s idle. **demo**: nothing
 * configured (embedded simulator, playground). **slack**: the service and Slack over HTTP, SQLite (the
 * production configuration issue 33 targets). **production**: the service at VIDEO_API_URL (a simulator in the
 * bench's process), Slack and Discord configured against their fakes (also here), the playground off. Floor:
 * the same runtime form serving only `/healthz` (cold-start-baseline.ts, compiled by esbuild and run by Node),
 * measured alternately in the same run. Medians over the runs.
 *
 * `compare`: the root of another checkout (a worktree of an older commit, with node_modules) started
 * alternately with this one in each configuration, as its own `npm start` runs it: compiled when it has
 * scripts/build.mjs, else `tsx src/main.ts`, then against a floor in that form too (the baseline through tsx).
 */
import { type ChildProcess, execFileSync, type SpawnOptions, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from '../scripts/bundle-options.mjs';
import { demoTeam, generateApiKey, startSimulator } from '../src/simulator/index.js';
import { startFakePlatforms } from '../test/support/fake-platforms.js';
import { freePort } from '../test/support/free-port.js';
import { type BenchResult, metric } from './lib/result.js';
import { median } from './lib/stats.js';

const ROOT = join(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const BASELINE = 'bench/cold-start-baseline.ts';
const LIBRARIES = 'bench/cold-start-libraries.ts';
const IDLE_MS = 10_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Run {
  readyMs: number;
  /** Every process of the tree (tsx wrapper + app), as `npm start` costs the host. */
  treeRssMb: number;
  /** The process running the code (the largest of the tree). */
  appRssMb: number;
}

/** RSS (MB) of `pid` and every descendant, from /proc. */
function treeRss(pid: number): { total: number; largest: number } {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  let largest = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      total += kb;
      largest = Math.max(largest, kb);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return { total: total / 1024, largest: largest / 1024 };
}

/** How a checkout's code is run: compiled JavaScript by Node, or TypeScript through tsx. */
export type Form = 'compiled' | 'tsx';

/** What is started: a program of a checkout in one runtime form, with the configuration's variables. */
export interface Target {
  root: string;
  /** The program, relative to `root`: a script run by Node (compiled) or by tsx. */
  script: string;
  form: Form;
  env: Record<string, string>;
}

/** The bot of the checkout at `root`, as its `npm start` runs it (compile it first when it compiles). */
export function botTarget(root: string, env: Record<string, string>): Target {
  const form = formOf(root);
  return { root, script: form === 'compiled' ? 'dist/main.js' : 'src/main.ts', form, env };
}

/** Compiles `root` as its `npm start` would (scripts/build.mjs). */
export function compile(root: string): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}

/** The floor in `form`: the baseline compiled by esbuild (as the bot is) or run through tsx. */
async function floorOf(form: Form): Promise<Target> {
  if (form === 'tsx') return { root: ROOT, script: BASELINE, form, env: {} };
  const out = join(ROOT, 'bench/output/cold-start-baseline.mjs');
  await build({
    entryPoints: [join(ROOT, BASELINE)],
    outfile: out,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  return { root: ROOT, script: out, form, env: {} };
}

/** The libraries' floor (cold-start-libraries.ts), bundled as the bot is. */
async function librariesFloor(): Promise<Target> {
  const out = join(ROOT, 'bench/output/cold-start-libraries.mjs');
  await build({ ...BUNDLE_OPTIONS, entryPoints: [join(ROOT, LIBRARIES)], outfile: out });
  return { root: ROOT, script: out, form: 'compiled', env: {} };
}

export const formOf = (root: string): Form =>
  existsSync(join(root, 'scripts/build.mjs')) ? 'compiled' : 'tsx';

/**
 * Spawns `t` as its checkout's `npm start` runs it; with `nodeFlags` (a profiler's), a tsx target runs as
 * `node <flags> --import tsx` in one process instead, so the flags reach the process running the code.
 */
function spawnTarget(t: Target, env: NodeJS.ProcessEnv, nodeFlags: string[]): ChildProcess {
  const options: SpawnOptions = { cwd: t.root, env, stdio: ['ignore', 'ignore', 'pipe'] };
  if (t.form === 'compiled')
    return spawn(process.execPath, [...nodeFlags, '--enable-source-maps', t.script], options);
  if (nodeFlags.length === 0) return spawn(TSX, [t.script], options);
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', t.script], options);
}

/** A started target, answering `/healthz`. Instants are `process.hrtime` in ns (the profiles' clock). */
export interface Started {
  child: ChildProcess;
  spawnedAt: bigint;
  readyAt: bigint;
  readyMs: number;
  /** SIGTERM (SIGKILL after 5 s), waits for the exit and removes the data directory. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `target` with a fresh data directory on a free port and waits for its first `/healthz` 200. */
export async function startTarget(target: Target, nodeFlags: string[] = []): Promise<Started> {
  const { script } = target;
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'reelbot-cold-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    REELBOT_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...target.env,
  };
  const spawnedAt = process.hrtime.bigint();
  const child = spawnTarget(target, env, nodeFlags);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-2000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const exit = await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
    return { ...exit, stderr };
  };
  try {
    for (let i = 0; i < 6000; i++) {
      if (child.exitCode !== null) throw new Error(`${script} exited early: ${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        await res.arrayBuffer();
        if (res.status === 200) {
          const readyAt = process.hrtime.bigint();
          return { child, spawnedAt, readyAt, readyMs: Number(readyAt - spawnedAt) / 1e6, stop };
        }
      } catch {
        // not listening yet
      }
      await sleep(10);
    }
    throw new Error(`${script} never became ready: ${stderr}`);
  } catch (error) {
    await stop();
    throw error;
  }
}

async function once(target: Target, log: (line: string) => void): Promise<Run> {
  const started = await startTarget(target);
  try {
    await sleep(IDLE_MS);
    const rss = treeRss(started.child.pid as number);
    log(
      `  ${target.script}: ready in ${Math.round(started.readyMs)} ms, RSS ${Math.round(rss.total)} MB (app ${Math.round(rss.largest)} MB)`,
    );
    return { readyMs: started.readyMs, treeRssMb: rss.total, appRssMb: rss.largest };
  } finally {
    await started.stop();
  }
}

/**
 * The production configurations' outside world, on 127.0.0.1: the service and both chat platforms' fakes.
 * `slack`: the service and Slack over HTTP (issue 33's target configuration); `production`: both platforms.
 */
export async function productionWorld(): Promise<{
  env: Record<Configuration, Record<string, string>>;
  close(): Promise<void>;
}> {
  const sim = await startSimulator({ port: 0, teams: [demoTeam(generateApiKey())] });
  const platforms = await startFakePlatforms();
  const slackOnly = Object.fromEntries(Object.entries(platforms.env).filter(([k]) => k.startsWith('SLACK_')));
  return {
    env: {
      demo: {},
      slack: { VIDEO_API_URL: sim.url, ...slackOnly },
      production: { VIDEO_API_URL: sim.url, ...platforms.env },
    },
    async close() {
      await platforms.close();
      await sim.close();
    },
  };
}

export type Configuration = 'demo' | 'slack' | 'production';

/** The runs of one checkout in one configuration. */
interface Series {
  configuration: Configuration;
  /** `this` or the compared checkout's root. */
  tree: string;
  target: Target;
  runs: Run[];
}

export async function coldStart(o: {
  runs: number;
  log(line: string): void;
  /** The root of another checkout to start alternately with this one (A/B). */
  compare?: string;
}): Promise<BenchResult> {
  const started = Date.now();
  const world = await productionWorld();
  const trees = [ROOT, ...(o.compare ? [o.compare] : [])];
  for (const root of trees) if (formOf(root) === 'compiled') compile(root);
  const forms = [...new Set(trees.map(formOf))];
  const floors = new Map<Form, { target: Target; runs: Run[] }>();
  for (const form of forms) floors.set(form, { target: await floorOf(form), runs: [] });
  // The slack configuration's libraries alone, when this checkout is compiled (the bundle is what it floors).
  const libraries =
    formOf(ROOT) === 'compiled' ? { target: await librariesFloor(), runs: [] as Run[] } : undefined;
  const allFloors = [...floors.values(), ...(libraries ? [libraries] : [])];
  const series: Series[] = (['demo', 'slack', 'production'] as const).flatMap((configuration) =>
    trees.map((root) => {
      return {
        configuration,
        tree: root === ROOT ? 'this' : root,
        target: botTarget(root, world.env[configuration]),
        runs: [],
      };
    }),
  );
  o.log(
    `cold-start: ${o.runs} runs each of ${series.length} starts, alternating with the floor (${forms.join(', ')})…`,
  );
  try {
    // Warm the caches first (the OS's, and tsx's transform cache), as any second start would find them.
    for (const f of allFloors) await once(f.target, () => {});
    for (const s of series) await once(s.target, () => {});
    for (let i = 0; i < o.runs; i++) {
      for (const f of allFloors) f.runs.push(await once(f.target, o.log));
      for (const s of series) {
        o.log(`  ${s.configuration}, ${s.tree}:`);
        s.runs.push(await once(s.target, o.log));
      }
    }
  } finally {
    await world.close();
  }
  const base = (s: Series): Run[] => floors.get(s.target.form)?.runs ?? [];
  return {
    name: 'cold-start',
    title: 'Cold start to ready, and idle memory',
    measured: true,
    baseline: `the same runtime form serving only /healthz (bench/cold-start-baseline.ts: ${forms.map((f) => (f === 'compiled' ? 'compiled by esbuild, run by node' : 'through tsx')).join('; ')}), alternating runs`,
    metrics: [
      ...series.flatMap((s) => seriesMetrics(s, base(s), o.compare !== undefined)),
      ...(libraries ? librariesMetrics(libraries.runs, floors.get('compiled')?.runs ?? []) : []),
    ],
    notes: [
      `Median of ${o.runs} runs each. demo: nothing configured (embedded simulator, playground); slack: VIDEO_API_URL (a simulator in the bench's process) and Slack over HTTP against its fake, SQLite; production: the same with Discord too. A fresh data directory each (migrations, new secret key), LOG_LEVEL=warn.`,
      ...series.map(
        (s) =>
          `${label(s, o.compare !== undefined)} (${s.target.form}): cold start ${(m(s.runs, 'readyMs') / m(base(s), 'readyMs')).toFixed(2)}× its floor, app RSS ${(m(s.runs, 'appRssMb') / m(base(s), 'appRssMb')).toFixed(2)}×${libraries && s.configuration === 'slack' && s.tree === 'this' ? `; ${(m(s.runs, 'readyMs') / m(libraries.runs, 'readyMs')).toFixed(2)}× the libraries' floor, ${(m(s.runs, 'appRssMb') / m(libraries.runs, 'appRssMb')).toFixed(2)}× its RSS` : ''}.`,
      ),
      ...(libraries
        ? [
            `The libraries' floor (${LIBRARIES}): the slack configuration's libraries alone (Bolt with its HTTP receiver, better-sqlite3 opening a file, pino, undici, zod) serving /healthz, bundled as the bot is. Its start over the bare floor is what loading them costs, whatever the bot does.`,
          ]
        : []),
    ],
    durationMs: Date.now() - started,
    details: {
      series: series.map(({ configuration, tree, runs }) => ({ configuration, tree, runs })),
      floors: [...floors].map(([form, f]) => ({ form, runs: f.runs })),
      ...(libraries ? { librariesFloor: libraries.runs } : {}),
    },
  };
}

const m = (runs: Run[], k: keyof Run) => median(runs.map((r) => r[k]));
const label = (s: Series, comparing: boolean) =>
  comparing ? `${s.configuration} (${s.tree === 'this' ? 'this checkout' : s.tree})` : s.configuration;

/** The libraries' floor against the bare compiled floor. */
const librariesMetrics = (runs: Run[], bare: Run[]) => [
  metric(
    "libraries' floor (Bolt, SQLite, pino, undici, zod): spawn → /healthz 200",
    m(runs, 'readyMs'),
    'ms',
    {
      baseline: m(bare, 'readyMs'),
    },
  ),
  metric("libraries' floor: RSS after 10 s idle (app process)", m(runs, 'appRssMb'), 'MB', {
    baseline: m(bare, 'appRssMb'),
  }),
];

/** Issue 33's targets by configuration: the start against its floor, and the app's idle RSS. */
const TARGETS: Record<string, { startRatio?: number; appRssMb?: number }> = {
  slack: { startRatio: 2, appRssMb: 120 },
  demo: { startRatio: 3 },
};

function seriesMetrics(s: Series, base: Run[], comparing: boolean) {
  const name = (what: string) => `${label(s, comparing)}: ${what}`;
  const target = TARGETS[s.configuration] ?? {};
  const ready = m(s.runs, 'readyMs');
  const appRss = m(s.runs, 'appRssMb');
  return [
    metric(name('spawn → /healthz 200'), ready, 'ms', {
      baseline: m(base, 'readyMs'),
      ...(target.startRatio === undefined
        ? {}
        : { target: `≤ ${target.startRatio}×`, pass: ready <= target.startRatio * m(base, 'readyMs') }),
    }),
    metric(name('RSS after 10 s idle (process tree)'), m(s.runs, 'treeRssMb'), 'MB', {
      baseline: m(base, 'treeRssMb'),
    }),
    metric(name('RSS after 10 s idle (app process)'), appRss, 'MB', {
      baseline: m(base, 'appRssMb'),
      ...(target.appRssMb === undefined
        ? {}
        : { target: `≤ ${target.appRssMb} MB`, pass: appRss <= target.appRssMb }),
    }),
  ];
}
