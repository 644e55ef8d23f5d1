/**
 * V8 CPU profiles (`node --cpu-prof`): in one line, how busy the process was, where its time went by area of
 * the code (the PostgreSQL driver, the store, the poller, the API client, Node's own internals, GC), and the
 * functions with the most self time; or, for a start-up, the self time by module up to an instant.
 */
import { readFileSync } from 'node:fs';
import { type CallFrame, isInternal, type ModuleNamer } from './profile-modules.js';

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
  /** Samples by source line (1-based) inside the function. */
  positionTicks?: { line: number; ticks: number }[];
}

interface Profile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock `process.hrtime` reads too. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CpuSummary {
  /** Wall time the profile covers (ms). */
  sampledMs: number;
  /** Share of it spent on the CPU (not idle). */
  busy: number;
  /** Busy time by area, shares of the busy time, largest first. */
  areas: [string, number][];
  line: string;
}

/** Where a frame's code lives, coarsely. */
function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8/native';
  if (url.includes('/node_modules/pg') || url.includes('/node_modules/postgres-')) return 'pg driver';
  if (url.includes('/src/store/')) return 'store';
  if (url.includes('/src/poller/')) return 'poller';
  if (url.includes('/src/api/') || url.includes('/node_modules/undici')) return 'API client';
  if (url.includes('/src/core/')) return 'core (watchers, cards)';
  if (url.includes('/src/replicas/')) return 'registry';
  if (url.startsWith('node:') || url === '') return 'Node internals';
  if (url.includes('/node_modules/')) return 'other libraries';
  return 'bench';
}

export function summariseCpuProfile(path: string): CpuSummary {
  const profile = readProfile(path);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
  let idle = 0;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const area = areaOf(frame);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const file = frame.url.split('/').slice(-2).join('/');
    const name = `${frame.functionName || '(anonymous)'} (${file || 'native'})`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const busyUs = total - idle;
  const share = (us: number) => (busyUs > 0 ? us / busyUs : 0);
  const sortedAreas = [...areas]
    .sort((a, b) => b[1] - a[1])
    .map(([k, us]) => [k, share(us)] as [string, number]);
  const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, 4);
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  return {
    sampledMs: Math.round(total / 1000),
    busy: total > 0 ? busyUs / total : 0,
    areas: sortedAreas,
    line: `on CPU ${pct(total > 0 ? busyUs / total : 0)} of ${(total / 1e6).toFixed(1)} s; by area ${sortedAreas
      .slice(0, 6)
      .map(([k, v]) => `${k} ${pct(v)}`)
      .join(', ')}; top self time ${top.map(([k, us]) => `${k} ${pct(share(us))}`).join(', ')}`,
  };
}

const readProfile = (path: string): Profile => JSON.parse(readFileSync(path, 'utf8')) as Profile;

/** A process's start-up from its CPU profile: self time by module from the profile's start to an instant. */
export interface StartupCpu {
  /** The profile's first instant, µs on the monotonic clock (Node starts the profiler once it has booted). */
  startUs: number;
  /** CPU time sampled up to the instant (idle excluded), µs. */
  busyUs: number;
  /** Self time by module (ModuleNamer), µs, largest first. */
  modules: [string, number][];
  /**
   * The same with the time in Node's internals and native code charged to the innermost module of the program
   * that called it (a `require` compiling a package counts for the requirer; the ES module loader's work, with
   * no program frame above it, stays the loader's): ModuleNamer.owner. µs, largest first.
   */
  charged: [string, number][];
  /** When the first sample with the bot's own code on its stack was taken, µs on the same clock. */
  firstOwnUs?: number;
}

/** Sums the samples of the CPU profile at `path` taken before `untilUs` (monotonic µs) by module. */
export function startupCpu(path: string, names: ModuleNamer, untilUs = Number.POSITIVE_INFINITY): StartupCpu {
  const profile = readProfile(path);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let at = profile.startTime;
  let firstOwnUs: number | undefined;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at > untilUs) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    if (firstOwnUs === undefined && ownOnStack(id, byId, parent, names)) firstOwnUs = at;
  });
  const modules = new Map<string, number>();
  const charged = new Map<string, number>();
  const add = (to: Map<string, number>, name: string, us: number) => to.set(name, (to.get(name) ?? 0) + us);
  let busyUs = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    busyUs += us;
    const shares = lineShares(node, names);
    for (const [name, share] of shares) add(modules, name, us * share);
    if (isInternal(node.callFrame)) add(charged, names.owner(stackOf(id, byId, parent)), us);
    else for (const [name, share] of shares) add(charged, name, us * share);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    startUs: profile.startTime,
    busyUs,
    modules: sorted(modules),
    charged: sorted(charged),
    ...(firstOwnUs === undefined ? {} : { firstOwnUs }),
  };
}

/**
 * A function's modules with their shares of its self time: one, except for a bundle chunk's top-level code,
 * which is split by the source lines its samples were on (each mapped to its own module).
 */
function lineShares(node: ProfileNode, names: ModuleNamer): [string, number][] {
  const ticks = node.positionTicks ?? [];
  const total = ticks.reduce((sum, t) => sum + t.ticks, 0);
  const whole = names.of(node.callFrame);
  if (total === 0 || !whole.endsWith('(top level)')) return [[whole, 1]];
  return ticks.map((t) => [names.of(node.callFrame, t.line - 1), t.ticks / total]);
}

const ownOnStack = (
  id: number,
  byId: Map<number, ProfileNode>,
  parent: Map<number, number>,
  names: ModuleNamer,
) => stackOf(id, byId, parent).some((f) => names.isOwn(f));

/** The frames from node `id` up to the root, innermost first. */
function stackOf(id: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): CallFrame[] {
  const frames: CallFrame[] = [];
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const frame = byId.get(n)?.callFrame;
    if (frame) frames.push(frame);
  }
  return frames;
}
