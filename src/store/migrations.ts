/**
 * Runs the SQLite schema's steps (sqlite-schema.ts): each in its own transaction together with the version
 * bump (`user_version`), refusing a database a newer reelbot wrote.
 */
import type Database from 'better-sqlite3';
import type { Logger } from '../core/ports/index.js';
import { MIGRATIONS } from './sqlite-schema.js';

export { MIGRATIONS };

export interface Migration {
  /** One line for the log. */
  name: string;
  sql: string;
}

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Thrown when the database was written by a newer reelbot than this one. */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
}

/**
 * Brings the database up to the last migration; a no-op when it is already there. The version is read inside
 * each step's IMMEDIATE transaction, so two processes opening a fresh file never apply a step twice.
 */
export function migrate(
  db: Database.Database,
  options: { location: string; logger: Logger; migrations?: readonly Migration[] },
): void {
  const migrations = options.migrations ?? MIGRATIONS;
  const applyNext = db.transaction((): number | undefined => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > migrations.length) {
      throw new SchemaTooNewError(
        `The database ${options.location} has schema version ${current}, but this reelbot only knows up to ` +
          `${migrations.length}: it was created by a newer reelbot. Run that newer version, or restore a backup.`,
      );
    }
    const step = migrations[current];
    if (!step) return undefined;
    db.exec(step.sql);
    // PRAGMA takes no bound parameters; the version is an integer we computed, not input.
    db.pragma(`user_version = ${current + 1}`);
    return current + 1;
  });
  const applied: number[] = [];
  for (let version = applyNext.immediate(); version !== undefined; version = applyNext.immediate()) {
    applied.push(version);
    options.logger.debug(
      { schemaVersion: version, migration: migrations[version - 1]!.name },
      'store migration applied',
    );
  }
  logMigrated(options.logger, applied);
}

/** One line for a start that migrated (each step is at debug): a fresh demo opens with one line, not seven. */
export function logMigrated(logger: Logger, applied: readonly number[]): void {
  const last = applied.at(-1);
  if (last === undefined) return;
  logger.info({ schemaVersion: last, applied: applied.length }, 'store migrated');
}
