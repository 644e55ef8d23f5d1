/**
 * One executor for both databases, so each table is written once. A table's statements are written
 * in PostgreSQL's dialect with `$1` placeholders; on SQLite they are translated once per statement text (and
 * the prepared statement cached): placeholders become named parameters, casts (`$1::json`) go, `= ANY($1)`
 * reads a JSON array with `json_each`, `greatest`/`least` become SQLite's two-argument `max`/`min`,
 * `COLLATE "C"` becomes `BINARY`, and row locks (`FOR UPDATE [SKIP LOCKED]`) go: SQLite's one writer holds the
 * whole database for the transaction. What no translation covers is written per dialect, side by side, with
 * `sql.dialect` (DDL, the database's own clock).
 *
 * Values: JSON columns come back as text on both (the pg parser for json is turned off: see PG_TYPES) and
 * tables parse them with `readJson`; BLOB and bytea are Buffers; times are numbers (ms); booleans are bound as
 * 1/0 on SQLite, and arrays as JSON text.
 */
import type Database from 'better-sqlite3';

export type Dialect = 'sqlite' | 'postgres';

/** One statement's rows, or how many rows it changed. */
export interface Sql {
  readonly dialect: Dialect;
  /** Every row, in the statement's order. */
  rows<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** The first row, if any. */
  row<R>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** How many rows the statement inserted, updated or deleted (or returned, with RETURNING). */
  count(text: string, params?: readonly unknown[]): Promise<number>;
  /**
   * The time claims are measured by, as an SQL expression in epoch ms: the database server's clock
   * on PostgreSQL, so replicas whose clocks disagree still agree on when a lease lapses; else `param`, the
   * caller's `now` (SQLite, where one process holds the database, and a PostgreSQL store on a virtual clock).
   */
  leaseNow(param: string): string;
}

/** A JSON value as a statement parameter. */
export const json = (value: unknown): string => JSON.stringify(value);

/**
 * PostgreSQL text holds no NUL: a TEXT parameter with one is refused, and so is `\u0000` in a JSON document its
 * operators read (`item ->> 'cardKey'` de-escapes every string of the document, so one row would fail the query
 * over all rows). Free text a user or a platform wrote (a rejection reason, an error) loses its NULs to U+FFFD,
 * on both databases alike.
 */
export const withoutNul = (text: string): string => text.replaceAll('\u0000', '\ufffd');

/** A JSON value for a column whose fields the store reads in SQL; JSON nobody queries keeps its text as written. */
export const queriedJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? withoutNul(v) : v));

/** A JSON column's value as stored (text on both databases), parsed; a value already parsed passes through. */
export function readJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** Runs one synchronous SQLite call now, or once another async flow's open transaction has ended. */
export type SqliteRun = <R>(op: () => R) => Promise<R>;

const STATEMENT_CACHE_LIMIT = 500;

/** Statements over a better-sqlite3 connection, each run through `run` (see SqliteStore's transactions). */
export function sqliteSql(db: Database.Database, run: SqliteRun): Sql {
  const cache = new Map<string, Database.Statement>();
  const prepare = (text: string): Database.Statement => {
    let statement = cache.get(text);
    if (statement === undefined) {
      statement = db.prepare(toSqlite(text));
      if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
      cache.set(text, statement);
    }
    return statement;
  };
  const all = (text: string, params: readonly unknown[] | undefined): unknown[] => {
    const statement = prepare(text);
    const bound = sqliteParams(params);
    if (statement.reader) return statement.all(bound);
    statement.run(bound);
    return [];
  };
  return {
    dialect: 'sqlite',
    leaseNow: (param) => param,
    rows: <R>(text: string, params?: readonly unknown[]) => run(() => all(text, params) as R[]),
    row: <R>(text: string, params?: readonly unknown[]) =>
      run(() => {
        const statement = prepare(text);
        const bound = sqliteParams(params);
        // A statement that returns no rows still runs (as on PostgreSQL), and answers undefined.
        if (statement.reader) return statement.get(bound) as R | undefined;
        statement.run(bound);
        return undefined;
      }),
    count: (text, params) =>
      run(() => {
        const statement = prepare(text);
        const bound = sqliteParams(params);
        return statement.reader ? statement.all(bound).length : statement.run(bound).changes;
      }),
  };
}

/** Binds `$1…` as the named parameters `@p1…`; booleans as 1/0, arrays as JSON (read with json_each). */
function sqliteParams(params: readonly unknown[] | undefined): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  params?.forEach((value, i) => {
    named[`p${i + 1}`] =
      typeof value === 'boolean'
        ? Number(value)
        : Array.isArray(value)
          ? JSON.stringify(value)
          : (value ?? null);
  });
  return named;
}

/** PostgreSQL's dialect as the tables write it, in SQLite's (see the file comment for what changes). */
export function toSqlite(text: string): string {
  return text
    .replace(/=\s*ANY\(\s*\$(\d+)(?:::[a-z ]+\[\])?\s*\)/gi, 'IN (SELECT value FROM json_each(@p$1))')
    .replace(/\$(\d+)/g, '@p$1')
    .replace(/::(?:double precision|[a-z0-9_]+)(?:\[\])?/gi, '')
    .replace(/\bgreatest\(/gi, 'max(')
    .replace(/\bleast\(/gi, 'min(')
    .replace(/COLLATE "C"/g, 'COLLATE BINARY')
    .replace(/\s+FOR UPDATE(?: SKIP LOCKED)?\b/gi, '');
}
