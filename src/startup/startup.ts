/** What the composition root's start-up steps share (src/main.ts and the steps beside this file). */
import type { Config } from '../config.js';
import type { Clock, Logger } from '../core/ports/index.js';
import type { Metrics } from '../observability/metrics.js';

/** What tests tune beyond the environment. */
export interface StartOptions {
  /** The Discord gateway lease's TTL with DATABASE_URL (default 15 s): takeover after a crash in ~4/3 of it. */
  leaderTtlMs?: number;
  /** `npm start -- --fresh`: the demo starts over (its simulator's state and the SQLite store are removed). */
  fresh?: boolean;
  /** The bot's time (default the system clock): tests pass a virtual one and move it. */
  clock?: Clock;
}

/** What every start-up step shares: `teardown` collects what to stop, in reverse order. */
export interface Startup {
  config: Config;
  logger: Logger;
  clock: Clock;
  metrics: Metrics;
  teardown: (() => Promise<void> | void)[];
  stopAll: () => Promise<void>;
  options: StartOptions;
}
