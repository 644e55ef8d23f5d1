/**
 * `npm run bench:startup` — where the production start's time and memory go, by module (issue 33). Starts
 * the bot in cold-start's **slack** configuration (the service at VIDEO_API_URL, a simulator here; Slack over
 * HTTP against its fake; SQLite) as its `npm start` runs it, under `--cpu-prof` and `--heap-prof`; waits for
 * `/healthz` 200, 2 s idle, then SIGTERM, on which the bot stops and exits and V8 writes both profiles. Then:
 * - **load time by module**: CPU time sampled from the profile's start to the first `/healthz` 200, Node's and
 *   native work (compiling a required file) charged to the module of the program that called it, self time beside;
 * - **retained size by module**: the sampled allocations still live at exit (after the idle and the stop).
 * Every thread's profiles are summed (under tsx, its loader hooks' thread transpiles). Modules are named by
 * bench/lib/profile-modules.ts. Medians over the runs, per module; the raw summaries
 * and the profiles of the median run go to bench/output/.
 *
 *   npm run bench:startup                                  this checkout, compiled (3 runs)
 *   npm run bench:startup -- --compare ../old --runs 5     and another checkout alternately
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { botTarget, compile, formOf, productionWorld, startTarget, type Target } from './cold-start.js';
import { type StartupCpu, startupCpu } from './lib/cpu-profile.js';
import { heapByModule } from './lib/heap-profile.js';
import { ModuleNamer } from './lib/profile-modules.js';
import { median } from './lib/stats.js';

const ROOT = join(import.meta.dirname, '..');
const OUTPUT = join(ROOT, 'bench/output');
const IDLE_MS = 2000;
/** Bytes between heap samples on average (V8's default, 512 KiB, leaves a 40 MB heap with ~80 samples). */
const HEAP_INTERVAL = 32 * 1024;
const TOP = 10;

/** One profiled start, summed by module. */
export interface ProfiledStart {
  readyMs: number;
  /** Threads that wrote profiles (summed below). */
  threads: number;
  /** Spawn → V8's profiler started (Node's own boot). */
  profilerStartMs: number;
  /** Spawn → the first sample with the bot's own code on the stack. */
  firstOwnMs?: number;
  /** CPU sampled from the profiler's start to ready, all threads. */
  busyMs: number;
  cpuMs: [string, number][];
  /** The same with Node's and native work charged to the program's module that called it (cpu-profile.ts). */
  chargedMs: [string, number][];
  heapMb: number;
  retainedMb: [string, number][];
  profiles: string[];
}

/** Starts `target` under both profilers, stops it after the idle, and sums its profiles. */
export async function profileStart(target: Target): Promise<ProfiledStart> {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-prof-'));
  const flags = [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    '--heap-prof',
    `--heap-prof-dir=${dir}`,
    `--heap-prof-interval=${HEAP_INTERVAL}`,
  ];
  const started = await startTarget(target, flags);
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const exit = await started.stop();
  if (exit.code !== 0) {
    throw new Error(
      `${target.script} did not exit normally on SIGTERM (${exit.signal ?? exit.code}): ${exit.stderr}`,
    );
  }
  // Every thread writes its own profiles (`<kind>.<date>.<time>.<pid>.<thread>.<seq>`): the main thread (0), and
  // under tsx its loader hooks' thread, which transpiles. The process's figures are their sums; the instants are
  // the main thread's.
  const pid = started.child.pid;
  const files = (kind: string) => {
    const found = readdirSync(dir)
      .filter((f) => f.startsWith(`${kind}.`) && f.includes(`.${pid}.`))
      .sort((a, b) => threadOf(a) - threadOf(b));
    if (threadOf(found[0] ?? '') !== 0)
      throw new Error(`no ${kind} profile of ${pid}'s main thread in ${dir}`);
    return found.map((f) => join(dir, f));
  };
  const names = new ModuleNamer(target.root);
  const cpuFiles = files('CPU');
  const heapFiles = files('Heap');
  const spawnUs = Number(started.spawnedAt / 1000n);
  const cpus = cpuFiles.map((f) => startupCpu(f, names, Number(started.readyAt / 1000n)));
  const heaps = heapFiles.map((f) => heapByModule(f, names));
  const [main] = cpus as [StartupCpu];
  const ms = (us: number) => us / 1000;
  return {
    readyMs: started.readyMs,
    threads: cpuFiles.length,
    profilerStartMs: ms(main.startUs - spawnUs),
    ...(main.firstOwnUs === undefined ? {} : { firstOwnMs: ms(main.firstOwnUs - spawnUs) }),
    busyMs: ms(sum(cpus.map((c) => c.busyUs))),
    cpuMs: sumByModule(
      cpus.map((c) => c.modules),
      ms,
    ),
    chargedMs: sumByModule(
      cpus.map((c) => c.charged),
      ms,
    ),
    heapMb: sum(heaps.map((h) => h.totalBytes)) / 2 ** 20,
    retainedMb: sumByModule(
      heaps.map((h) => h.modules),
      (b) => b / 2 ** 20,
    ),
    profiles: [...cpuFiles, ...heapFiles],
  };
}

const threadOf = (file: string) => Number(file.split('.').at(-3));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Per module, the sum over `lists` (one per thread) in the unit `unit` gives, largest first. */
function sumByModule(lists: [string, number][][], unit: (x: number) => number): [string, number][] {
  const total = new Map<string, number>();
  for (const [k, v] of lists.flat()) total.set(k, (total.get(k) ?? 0) + v);
  return [...total].map(([k, v]): [string, number] => [k, unit(v)]).sort((a, b) => b[1] - a[1]);
}

/** Per module, the median over the runs (a module missing from a run counts 0), largest first. */
function medianByModule(runs: [string, number][][]): [string, number][] {
  const keys = new Set(runs.flatMap((r) => r.map(([k]) => k)));
  return [...keys]
    .map((k): [string, number] => [k, median(runs.map((r) => r.find(([n]) => n === k)?.[1] ?? 0))])
    .sort((a, b) => b[1] - a[1]);
}

const spread = (xs: number[], digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

/** The two top-10 tables and the figures around them, as markdown. */
export function report(label: string, runs: ProfiledStart[]): string {
  const busy = median(runs.map((r) => r.busyMs));
  const heap = median(runs.map((r) => r.heapMb));
  const own = runs.flatMap((r) => (r.firstOwnMs === undefined ? [] : [r.firstOwnMs]));
  const self = new Map(medianByModule(runs.map((r) => r.cpuMs)));
  const charged = medianByModule(runs.map((r) => r.chargedMs)).slice(0, TOP);
  const retained = medianByModule(runs.map((r) => r.retainedMb)).slice(0, TOP);
  return [
    `### ${label}`,
    '',
    `${runs.length} run(s), ${Math.max(...runs.map((r) => r.threads))} thread(s) profiled, median (min–max): spawn → /healthz ${spread(runs.map((r) => r.readyMs))} ms; ` +
      `spawn → profiler started ${spread(runs.map((r) => r.profilerStartMs))} ms; ` +
      `spawn → first sample in the bot's own code ${own.length ? spread(own) : '–'} ms; ` +
      `CPU sampled to ready ${spread(runs.map((r) => r.busyMs))} ms; ` +
      `sampled heap live at exit ${spread(
        runs.map((r) => r.heapMb),
        1,
      )} MB.`,
    '',
    '| module | CPU to ready, with the Node/native work it called | share | self time only |',
    '|---|---|---|---|',
    ...charged.map(
      ([k, v]) =>
        `| ${k} | ${Math.round(v)} ms | ${Math.round((100 * v) / busy)} % | ${Math.round(self.get(k) ?? 0)} ms |`,
    ),
    '',
    '| module | retained at exit | share |',
    '|---|---|---|',
    ...retained.map(([k, v]) => `| ${k} | ${v.toFixed(1)} MB | ${Math.round((100 * v) / heap)} % |`),
    '',
  ].join('\n');
}

async function main(args: string[]) {
  const at = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const compare = at('--compare');
  const runs = Number(at('--runs') ?? 3);
  const trees = [ROOT, ...(compare ? [compare] : [])];
  for (const root of trees) if (formOf(root) === 'compiled') compile(root);
  const world = await productionWorld();
  const results = new Map<string, ProfiledStart[]>(trees.map((t) => [t, []]));
  try {
    for (let i = 0; i < runs; i++) {
      for (const root of trees) {
        const run = await profileStart(botTarget(root, world.env.slack));
        process.stderr.write(`  ${root}: ready in ${Math.round(run.readyMs)} ms\n`);
        results.get(root)?.push(run);
      }
    }
  } finally {
    await world.close();
  }
  mkdirSync(OUTPUT, { recursive: true });
  for (const [root, list] of results) {
    const name = root === ROOT ? 'this' : basename(root);
    const label = `${root === ROOT ? 'this checkout' : root} (${formOf(root)}, slack configuration)`;
    process.stdout.write(`${report(label, list)}\n`);
    writeFileSync(join(OUTPUT, `startup-profile-${name}.json`), JSON.stringify(list, null, 1));
    for (const old of readdirSync(OUTPUT).filter((f) => f.startsWith(`startup-${name}-`)))
      rmSync(join(OUTPUT, old));
    const mid = [...list].sort((a, b) => a.readyMs - b.readyMs)[Math.floor(list.length / 2)];
    for (const file of mid?.profiles ?? [])
      copyFileSync(file, join(OUTPUT, `startup-${name}-${basename(file)}`));
    for (const run of list)
      for (const file of run.profiles) rmSync(join(file, '..'), { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
