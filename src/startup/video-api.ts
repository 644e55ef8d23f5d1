/**
 * The video API the bot talks to: the configured service, or in demo mode the embedded simulator with a fresh
 * team key and its state kept in the data directory; the replicas' registry that shares each key's rate
 * budget between replicas.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createVideoApiFactory, RateBudgetRegistry } from '../api/index.js';
import { logMask } from '../observability/logger.js';
import { videoApiHooks } from '../observability/metrics.js';
import { openReplicaRegistry } from '../replicas/registry.js';
import type { RunningSimulator } from '../simulator/index.js';
import type { Startup } from './startup.js';

/** Where the demo's embedded simulator keeps its state, in the data directory. */
export const SIMULATOR_STATE_FILE = 'simulator.json';

/** The video API: in demo mode the simulator serves it in-process with a fresh team key. */
export async function videoApi(s: Startup) {
  const { config } = s;
  let simulator: RunningSimulator | undefined;
  let baseUrl = config.VIDEO_API_URL;
  let deploymentKey = config.VIDEO_API_KEY;
  if (config.demo) {
    // Loaded only here: a bot talking to the real service never loads the simulator (issue 33).
    const { demoTeam, generateApiKey, startSimulator } = await import('../simulator/index.js');
    const demoKey = deploymentKey ?? generateApiKey();
    simulator = await startSimulator({
      port: 0,
      speed: config.SIM_SPEED,
      profile: config.SIM_PROFILE,
      teams: [demoTeam(demoKey)],
      ...simulatorState(s),
    });
    s.teardown.push(() => simulator?.close());
    baseUrl = simulator.url;
    // A continued demo keeps its team's key (members may have linked it); a new one seeds `demoKey`.
    deploymentKey = simulator.keys.includes(demoKey) ? demoKey : (simulator.keys[0] ?? demoKey);
  }
  // Replicas on one database share each key's rate limits: every budget takes this one's share.
  const replicas = await openReplicaRegistry({
    databaseUrl: config.DATABASE_URL,
    id: config.REELBOT_REPLICA_ID,
    databaseTimeoutMs: config.DATABASE_TIMEOUT_MS,
    clock: s.clock,
    logger: s.logger,
    peakUse: () => budgets.peakUse(),
  });
  const budgets = new RateBudgetRegistry({ clock: s.clock, share: () => replicas.share() });
  replicas.onChange(() => budgets.shareChanged());
  await replicas.start();
  s.teardown.push(() => replicas.stop());
  const apiFor = createVideoApiFactory({
    baseUrl: baseUrl as string,
    logger: s.logger,
    onKey: logMask.accept,
    budgets,
    ...videoApiHooks(s.metrics),
  });
  // The real service runs in real time; the embedded simulator at its speed (core/live/service-time.ts).
  const serviceSpeed = simulator ? config.SIM_SPEED : 1;
  return { apiFor, deploymentKey, simulator, replicas, serviceSpeed };
}

/**
 * Where the demo's simulator keeps its state: beside the SQLite store, in the data directory this process has
 * locked, so the demo continues after a restart (its videos and credits, like its policy and audit). With
 * DATABASE_URL (several replicas, each with its own embedded simulator) it stays in memory, as before.
 */
function simulatorState(s: Startup) {
  if (s.config.DATABASE_URL) return {};
  const path = join(s.config.REELBOT_DATA_DIR, SIMULATOR_STATE_FILE);
  mkdirSync(s.config.REELBOT_DATA_DIR, { recursive: true, mode: 0o700 });
  if (s.options.fresh) rmSync(path, { force: true });
  return { stateFile: { path, warn: (message: string) => s.logger.warn({}, message) } };
}
