/**
 * The video API simulator in a process of its own, driven over IPC, so a benchmark measures the bot's CPU
 * and memory without the simulator's, and the simulator's clock follows the benchmark's virtual clock.
 *
 * Started by `startSimulatorProcess` (./sim-child.ts). Messages: `init` → `{ url }`, `set` (clock),
 * `knobs`, `usage` (CPU/RSS of this process), `ledger`/`published` (inspection).
 */
import {
  ManualClock,
  type SeedTeam,
  type SimulatorProfile,
  startSimulator,
} from '../../src/simulator/index.js';
import { createVideo, type Model } from './jobs.js';
import { ScaledClock } from './virtual-clock.js';

export interface InitMessage {
  op: 'init';
  start: number;
  teams: SeedTeam[];
  randomSeed: number;
  knobs?: Record<string, unknown>;
  /** What the simulator serves (default `spec`; `real`: the real product's shapes and step-curve progress). */
  profile?: SimulatorProfile;
  /** Real time sped up and shared with the parent, instead of a clock the parent sets. */
  scaled?: { realStart: number; scale: number };
}
export type Request =
  | InitMessage
  | { op: 'set'; now: number }
  | { op: 'knobs'; knobs: Record<string, unknown> }
  | { op: 'usage' }
  | { op: 'stats' }
  /** POST /videos from this process, so the benchmark process does not pay for making its load. */
  | { op: 'create'; key: string; model: Model; name: string };

if (!process.send) {
  process.stderr.write('sim-process.ts must be started with an IPC channel\n');
  process.exit(2);
}

let clock: ManualClock | undefined;
let running: Awaited<ReturnType<typeof startSimulator>> | undefined;

process.on('message', (raw: { id: number } & Request) => {
  void handle(raw).then(
    (reply) => process.send?.({ id: raw.id, ok: true, ...reply }),
    (error: unknown) => process.send?.({ id: raw.id, ok: false, error: String(error) }),
  );
});
// The parent going away (even by SIGKILL) closes the channel: exit with it.
process.on('disconnect', () => process.exit(0));

async function handle(msg: Request): Promise<Record<string, unknown>> {
  switch (msg.op) {
    case 'init': {
      clock = new ManualClock(msg.start);
      const scaled = msg.scaled
        ? new ScaledClock(msg.start, msg.scaled.realStart, msg.scaled.scale)
        : undefined;
      running = await startSimulator({
        port: 0,
        clock: scaled ?? clock,
        randomSeed: msg.randomSeed,
        teams: msg.teams,
        ...(msg.profile ? { profile: msg.profile } : {}),
        ...(msg.knobs ?? {}),
      });
      return { url: running.url };
    }
    case 'set':
      clock?.set(Math.max(clock.now(), msg.now));
      running?.sim.settle();
      return {};
    case 'knobs':
      running?.sim.setKnobs(msg.knobs);
      return {};
    case 'usage': {
      const cpu = process.cpuUsage();
      return { cpuMs: (cpu.user + cpu.system) / 1000, rssMb: process.memoryUsage.rss() / 2 ** 20 };
    }
    case 'stats':
      return { published: running?.sim.publishedPosts().length ?? 0 };
    case 'create': {
      if (!running) throw new Error('not started');
      return { videoId: await createVideo(running.url, msg.key, { model: msg.model, name: msg.name }) };
    }
  }
}
