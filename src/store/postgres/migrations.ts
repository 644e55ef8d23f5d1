/**
 * Runs the PostgreSQL schema's steps (schema.ts) under an advisory lock: every replica may start at once, one
 * migrates and the others find nothing to do.
 */
import type pg from 'pg';
import type { Logger } from '../../core/ports/index.js';
import { logMigrated, type Migration, SchemaTooNewError } from '../migrations.js';
import { POSTGRES_MIGRATIONS } from './schema.js';

export { POSTGRES_MIGRATIONS };

/** The schema version this build writes on PostgreSQL. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/**
 * The advisory lock key every replica's migration takes ('reelbot' in ASCII): one migrates, the others wait
 * for its commit and then find nothing to do.
 */
export const MIGRATION_LOCK_KEY = '32199633629507444';

const CREATE_VERSION_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`;

export interface MigratePostgresOptions {
  logger: Logger;
  /** Names the database in the too-new error; default `postgres://<host>:<port>/<database>` (no credentials). */
  location?: string;
  /** Tests only: another list of steps. */
  migrations?: readonly Migration[];
}

/**
 * Brings the database up to the last migration; a no-op when it is already there. All pending steps and their
 * `schema_version` rows commit in one transaction (PostgreSQL's DDL is transactional: all or nothing) that first
 * takes `pg_advisory_xact_lock`, so replicas starting together migrate exactly once. Throws SchemaTooNewError,
 * changing nothing, when the database records a version this build does not know. Returns the version.
 */
export async function migratePostgres(pool: pg.Pool, options: MigratePostgresOptions): Promise<number> {
  const migrations = options.migrations ?? POSTGRES_MIGRATIONS;
  const applied: number[] = [];
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    // Replicas starting together wait here for the one migrating, however long that takes: not the store
    // sessions' short lock and idle timeouts (session.ts).
    await client.query(
      'SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0',
    );
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    // Under the lock: two sessions racing on CREATE TABLE IF NOT EXISTS can both try to create it.
    await client.query(CREATE_VERSION_TABLE);
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM schema_version',
    );
    const current = rows[0]?.version ?? 0;
    if (current > migrations.length) {
      throw new SchemaTooNewError(
        `The PostgreSQL database ${options.location ?? describe(pool)} has schema version ${current}, but this ` +
          `reelbot only knows up to ${migrations.length}: it was migrated by a newer reelbot, so run that newer ` +
          'version (or restore a backup).',
      );
    }
    for (let version = current + 1; version <= migrations.length; version++) {
      const step = migrations[version - 1]!;
      await client.query(step.sql);
      await client.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [version, step.name]);
      applied.push(version);
    }
    await client.query('COMMIT');
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      // The connection is unusable: the pool must not hand it out again.
      broken = rollbackError as Error;
    }
    throw error;
  } finally {
    client.release(broken);
  }
  for (const version of applied) {
    options.logger.debug(
      { schemaVersion: version, migration: migrations[version - 1]!.name },
      'store migration applied',
    );
  }
  logMigrated(options.logger, applied);
  return migrations.length;
}

/** Where the pool connects, without user or password. */
function describe(pool: pg.Pool): string {
  const { host, port, database, connectionString } = pool.options;
  if (connectionString) {
    try {
      const url = new URL(connectionString);
      return `postgres://${url.host}${url.pathname}`;
    } catch {
      return 'configured by DATABASE_URL';
    }
  }
  return `postgres://${host ?? 'localhost'}:${port ?? 5432}/${database ?? ''}`;
}
