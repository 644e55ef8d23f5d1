/**
 * A real PostgreSQL cluster for the calling test file (test/support/postgres.ts), and pools on new databases of it,
 * ended after each test; the tables only PostgreSQL's schema has.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

/** The cluster of the running file (a live binding: set by the beforeAll of onATestCluster). */
export let server: TestPostgres;
const pools: pg.Pool[] = [];

/** Starts a cluster before the calling file's tests and stops it after them; ends newPool's pools after each. */
export function onATestCluster(): void {
  beforeAll(async () => {
    server = await startPostgres();
    console.info(`PostgreSQL test cluster started in ${server.startMs} ms on port ${server.port}`);
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
  });
}

/** A pool on `url`, or on a new database of the test cluster. */
export async function newPool(url?: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url ?? (await server.createDatabase()), max: 3 });
  pools.push(pool);
  return pool;
}

/**
 * Tables only the PostgreSQL schema has, with their columns: they coordinate several replicas, which one SQLite
 * process never needs (it is always its own leader). `leases`: the leader lease (postgres/leader-lease.ts);
 * `replicas`: the replica registry and each replica's bound on the rate limits (src/replicas/).
 */
export const POSTGRES_ONLY: Record<string, string[]> = {
  leases: ['name', 'holder', 'term', 'expires_at', 'acquired_at'],
  replicas: ['id', 'started_at', 'heartbeat_at', 'left_at', 'bound'],
};

export const databaseOf = (pool: pg.Pool) => new URL(pool.options.connectionString!).pathname.slice(1);

/** The tables of the database `pool` is on. */
export async function tables(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ t: string }>(
    "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  return rows.map((r) => r.t);
}
