/**
 * The start-up profile's summaries (bench/startup-profile.ts) on real profiles: a tiny program bundled by
 * esbuild, run by Node under both profilers. Its package and its own code each burn CPU and keep memory, so
 * each must come out named, and the tables cannot silently go empty or lump everything under the bundle's file.
 * It is built twice: its package left in node_modules, and bundled in with it as the bot's libraries are
 * (scripts/build.mjs), where only the source map beside the bundle tells the package's code from the rest.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startupCpu } from '../../bench/lib/cpu-profile.js';
import { heapByModule } from '../../bench/lib/heap-profile.js';
import { BUNDLER_RUNTIME, ModuleNamer } from '../../bench/lib/profile-modules.js';
import { report } from '../../bench/startup-profile.js';

const root = mkdtempSync(join(tmpdir(), 'reelbot-profile-'));
/** The same program with its package bundled in. */
const bundledRoot = mkdtempSync(join(tmpdir(), 'reelbot-profile-bundled-'));
const file = (path: string, text: string) => {
  for (const at of [root, bundledRoot]) {
    mkdirSync(join(at, path, '..'), { recursive: true });
    writeFileSync(join(at, path), text);
  }
};
const profile = (kind: string, at = root) => {
  const profiles = join(at, 'profiles');
  return join(profiles, readdirSync(profiles).find((f) => f.startsWith(kind)) ?? '');
};

/** Builds the program in `at` (`bundleAll`: its package too) and runs it under both profilers. */
async function buildAndProfile(at: string, bundleAll: boolean): Promise<void> {
  await build({
    absWorkingDir: at,
    entryPoints: ['src/main.js'],
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    ...(bundleAll ? {} : { packages: 'external' as const }),
    sourcemap: true,
    logLevel: 'warning',
  });
  const profiles = join(at, 'profiles');
  const flags = [`--cpu-prof-dir=${profiles}`, `--heap-prof-dir=${profiles}`, '--heap-prof-interval=4096'];
  const run = spawnSync(process.execPath, ['--cpu-prof', '--heap-prof', ...flags, 'dist/main.js'], {
    cwd: at,
  });
  expect(run.status, run.stderr.toString()).toBe(0);
}
const top = (modules: [string, number][], n: number) => modules.slice(0, n).map(([name]) => name);

beforeAll(async () => {
  file('node_modules/burner/package.json', JSON.stringify({ name: 'burner', main: 'index.js' }));
  file(
    'node_modules/burner/index.js',
    `exports.kept = [];
exports.burn = (ms) => { const end = Date.now() + ms; let n = 0; while (Date.now() < end) n++; return n; };
exports.hold = (n) => { for (let i = 0; i < n; i++) exports.kept.push({ i, text: 'burner ' + i }); };`,
  );
  file(
    'src/area/work.js',
    `export const mine = [];
export function spin(ms) { const end = Date.now() + ms; let n = 0; while (Date.now() < end) n += Math.sqrt(n); return n; }
export function keep(n) { for (let i = 0; i < n; i++) mine.push({ i, text: 'mine ' + i }); }`,
  );
  file(
    'src/main.js',
    `import burner from 'burner';
import { keep, spin } from './area/work.js';
burner.burn(200); spin(200); burner.hold(100000); keep(100000);`,
  );
  await buildAndProfile(root, false);
  await buildAndProfile(bundledRoot, true);
});

afterAll(() => {
  for (const at of [root, bundledRoot]) rmSync(at, { recursive: true, force: true });
});

describe('start-up profile summaries', () => {
  it('sums CPU time by package and by area of the own code, mapped back through the source map', () => {
    const cpu = startupCpu(profile('CPU'), new ModuleNamer(root));
    expect(top(cpu.charged, 3)).toEqual(expect.arrayContaining(['burner', 'src/area']));
    const ms = new Map(cpu.charged.map(([name, us]) => [name, us / 1000]));
    expect(ms.get('burner')).toBeGreaterThan(50);
    expect(ms.get('src/area')).toBeGreaterThan(50);
    expect(cpu.busyUs).toBeGreaterThan(0);
    expect(cpu.firstOwnUs).toBeGreaterThan(cpu.startUs);
  });

  it('counts nothing after the instant it is given', () => {
    const all = startupCpu(profile('CPU'), new ModuleNamer(root));
    const none = startupCpu(profile('CPU'), new ModuleNamer(root), all.startUs);
    expect(none.busyUs).toBe(0);
    expect(none.charged).toEqual([]);
  });

  it('sums the live heap by the package or own code that allocated it', () => {
    const heap = heapByModule(profile('Heap'), new ModuleNamer(root));
    const mb = new Map(heap.modules.map(([name, bytes]) => [name, bytes / 2 ** 20]));
    expect(mb.get('burner')).toBeGreaterThan(1);
    expect(heap.totalBytes).toBeGreaterThan(2 * 2 ** 20);
    expect(top(heap.modules, 3)).toEqual(expect.arrayContaining(['burner', 'src/area']));
  });

  it('prints both top-10 tables with the modules in them', () => {
    const names = new ModuleNamer(root);
    const cpu = startupCpu(profile('CPU'), names);
    const heap = heapByModule(profile('Heap'), names);
    const ms = (list: [string, number][]) => list.map(([k, us]): [string, number] => [k, us / 1000]);
    const text = report('tiny', [
      {
        readyMs: 500,
        threads: 1,
        profilerStartMs: 20,
        busyMs: cpu.busyUs / 1000,
        cpuMs: ms(cpu.modules),
        chargedMs: ms(cpu.charged),
        heapMb: heap.totalBytes / 2 ** 20,
        retainedMb: heap.modules.map(([k, b]) => [k, b / 2 ** 20]),
        profiles: [],
      },
    ]);
    const [cpuTable, heapTable] = text.split('| module |').slice(1);
    expect(cpuTable).toMatch(/\| burner \| \d+ ms \| \d+ % \| \d+ ms \|/);
    expect(cpuTable).toMatch(/\| src\/area \| \d+ ms/);
    expect(heapTable).toMatch(/\| burner \| \d+\.\d MB \| \d+ % \|/);
  });

  it("names a bundled package through the source map, and the bundler's helpers as such", () => {
    const names = new ModuleNamer(bundledRoot);
    const cpu = startupCpu(profile('CPU', bundledRoot), names);
    const ms = new Map(cpu.charged.map(([name, us]) => [name, us / 1000]));
    expect(ms.get('burner')).toBeGreaterThan(50);
    expect(ms.get('src/area')).toBeGreaterThan(50);
    // esbuild's own helpers (the CommonJS wrapper around the package) map to no source: named as such, not
    // counted as the bot's code.
    const bundle = join(bundledRoot, 'dist/main.js');
    const lines = readFileSync(bundle, 'utf8').split('\n');
    const lineNumber = lines.findIndex((l) => l.includes('__commonJS ='));
    expect(lineNumber).toBeGreaterThan(-1);
    const helper = {
      functionName: '__commonJS',
      url: pathToFileURL(bundle).href,
      lineNumber,
      columnNumber: lines[lineNumber]?.indexOf('(') ?? 0,
    };
    expect(names.of(helper)).toBe(BUNDLER_RUNTIME);
    expect(names.isOwn(helper)).toBe(false);
  });
});
