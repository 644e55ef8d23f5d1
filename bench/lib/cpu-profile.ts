/**
 * A V8 CPU profile (`node --cpu-prof`) in one line: how busy the process was, where its time went by area of
 * the code (the PostgreSQL driver, the store, the poller, the API client, Node's own internals, GC), and the
 * functions with the most self time.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
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
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
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
