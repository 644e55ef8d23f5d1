/**
 * Which replicas send with the same API keys, and this one's share of each key's rate limits.
 * On SQLite one process is the only replica: count 1, the whole limit. With DATABASE_URL the replicas
 * heartbeat in the `replicas` table (postgres-registry.ts) and share the limits (share-rule.ts).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock, Logger } from '../core/ports/index.js';

/** This process among the replicas sharing a database. */
export interface ReplicaRegistry {
  /** This replica's id (also the poller's lease holder). */
  readonly id: string;
  /** Replicas heartbeating now, this one included. */
  liveCount(): number;
  /** The part of every rate limit this replica may use now, in [0, 1]; 0 while it must wait. */
  share(): number;
  /** Called when `liveCount()` or `share()` changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Registers and takes a first share (awaited), then heartbeats until `stop()`. */
  start(): Promise<void>;
  /** One heartbeat now (the `start()` loop's step; tests drive it). */
  tick(): Promise<void>;
  /** Stops sending (share 0), then leaves the table; waits for a heartbeat in flight. */
  stop(): Promise<void>;
}

/** `REELBOT_REPLICA_ID` if set, else `<hostname>-<pid>-<random>` (unique even for a restarted pid). */
export function replicaId(configured?: string): string {
  return configured ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** The only replica (SQLite): the whole of every limit, always. */
export class SingleReplica implements ReplicaRegistry {
  constructor(readonly id: string = replicaId()) {}
  liveCount(): number {
    return 1;
  }
  share(): number {
    return 1;
  }
  onChange(): () => void {
    return () => {};
  }
  async start(): Promise<void> {}
  async tick(): Promise<void> {}
  async stop(): Promise<void> {}
}

export interface OpenReplicaRegistryOptions {
  /** `DATABASE_URL`; without it, a `SingleReplica`. */
  databaseUrl?: string | undefined;
  /** `REELBOT_REPLICA_ID`. */
  id?: string | undefined;
  /** `DATABASE_TIMEOUT_MS` (see src/store/postgres/session.ts). */
  databaseTimeoutMs?: number;
  clock: Clock;
  logger: Logger;
  /** This replica's largest use of any limit in its current window (`RateBudgetRegistry.peakUse`). */
  peakUse(): number;
}

/**
 * The registry for this deployment, not yet started. On PostgreSQL it has its own one-connection pool and
 * brings the schema up to date first (idempotent, under the migration lock), so it may start before the store.
 */
export async function openReplicaRegistry(options: OpenReplicaRegistryOptions): Promise<ReplicaRegistry> {
  const id = replicaId(options.id);
  if (!options.databaseUrl) return new SingleReplica(id);
  // Loaded only here, as the PostgreSQL store is: SQLite never pays for the driver.
  const { default: pg } = await import('pg');
  const { migratePostgres } = await import('../store/postgres/migrations.js');
  const { PostgresReplicaRegistry } = await import('./postgres-registry.js');
  const { DEFAULT_DATABASE_TIMEOUT_MS, sessionSettings } = await import('../store/postgres/session.js');
  // Two connections: a hung one cannot starve the heartbeat (it is replaced on the next attempt). The store's
  // timeouts: a replica stopped while its heartbeat holds the table lock must not hold the others' up.
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 2,
    ...sessionSettings(options.databaseTimeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS),
  });
  pool.on('error', (error) =>
    options.logger.warn({ err: error }, 'replica registry: idle connection failed'),
  );
  try {
    await migratePostgres(pool, { logger: options.logger });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresReplicaRegistry({
    pool,
    id,
    clock: options.clock,
    logger: options.logger,
    peakUse: options.peakUse,
    onStop: () => pool.end(),
  });
}
