/** Starts ./sim-process.ts as a child and talks to it (see there). */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { SeedTeam, SimulatorProfile } from '../../src/simulator/index.js';

export interface SimulatorProcess {
  url: string;
  pid: number;
  setTime(now: number): Promise<void>;
  setKnobs(knobs: Record<string, unknown>): Promise<void>;
  usage(): Promise<{ cpuMs: number; rssMb: number }>;
  /** POST /videos made by the simulator's process (see sim-process.ts). */
  createVideo(key: string, input: { model: string; name: string }): Promise<string>;
  close(): Promise<void>;
}

const ROOT = join(import.meta.dirname, '../..');

export async function startSimulatorProcess(options: {
  start: number;
  teams: SeedTeam[];
  randomSeed: number;
  knobs?: Record<string, unknown>;
  profile?: SimulatorProfile;
  scaled?: { realStart: number; scale: number };
}): Promise<SimulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/sim-process.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let next = 1;
  const pending = new Map<
    number,
    { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  child.on('message', (msg: { id: number; ok: boolean; error?: string } & Record<string, unknown>) => {
    const waiter = pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    if (msg.ok) waiter.resolve(msg);
    else waiter.reject(new Error(msg.error ?? 'simulator process failed'));
  });
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`simulator process exited (${code})`));
    pending.clear();
  });
  const call = (msg: Record<string, unknown>): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ ...msg, id });
    });

  const init = await call({ op: 'init', ...options });
  return {
    url: String(init.url),
    pid: child.pid as number,
    setTime: async (now) => {
      await call({ op: 'set', now });
    },
    setKnobs: async (knobs) => {
      await call({ op: 'knobs', knobs });
    },
    usage: async () => {
      const u = await call({ op: 'usage' });
      return { cpuMs: Number(u.cpuMs), rssMb: Number(u.rssMb) };
    },
    createVideo: async (key, input) => String((await call({ op: 'create', key, ...input })).videoId),
    close: async () => {
      child.disconnect?.();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
