/**
 * How the tables (src/store/tables/) run their statements on PostgreSQL: through one executor
 * (`PostgresTransactions.query`) that picks the open transaction's connection or the pool, so a table never
 * holds a connection itself.
 */
import pg from 'pg';
import type { Sql } from '../sql.js';

/** Runs one statement on the right connection. */
export type Query = (text: string, params?: readonly unknown[]) => Promise<pg.QueryResult>;

/**
 * Whose clock times claims: the server's (`database`, in production), or the store's injected clock
 * (`injected`: tests and benchmarks on virtual time, where every replica shares one clock).
 */
export type LeaseClock = 'database' | 'injected';

/** The server's clock in epoch ms: the start of the statement, the same for all of its rows. */
const SERVER_NOW_MS = '(extract(epoch from statement_timestamp()) * 1000)::double precision';

export function sqlOver(query: Query, leaseClock: LeaseClock = 'database'): Sql {
  const run = (text: string, params?: readonly unknown[]) => query(text, named(text, params));
  return {
    dialect: 'postgres',
    leaseNow: (param) => (leaseClock === 'database' ? SERVER_NOW_MS : `${param}::double precision`),
    rows: async <R>(text: string, params?: readonly unknown[]) => (await run(text, params)).rows as R[],
    row: async <R>(text: string, params?: readonly unknown[]) =>
      (await run(text, params)).rows[0] as R | undefined,
    count: async (text, params) => (await run(text, params)).rowCount ?? 0,
  };
}

/**
 * The parameters up to the last one the statement names: PostgreSQL refuses a value no placeholder takes, and
 * a table passes last the ones only some texts use (the caller's clock, where the database's times claims).
 */
function named(text: string, params: readonly unknown[] | undefined): readonly unknown[] | undefined {
  if (params === undefined || params.length === 0) return params;
  let last = 0;
  for (const [, n] of text.matchAll(/\$(\d+)/g)) last = Math.max(last, Number(n));
  return last >= params.length ? params : params.slice(0, last);
}

const INT8_OID = 20;
const JSON_OID = 114;
const JSONB_OID = 3802;
const asText = (value: string): string => value;

/**
 * The driver's parsers, but int8 (BIGINT row ids, count(*)) as a number rather than a string: ids stay far below
 * 2^53; and json as its text, as SQLite's TEXT comes back, so the tables parse both alike (`readJson`). float8
 * (the times) comes back as a number already.
 */
export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    format === 'binary'
      ? pg.types.getTypeParser(oid, format)
      : oid === INT8_OID
        ? Number
        : oid === JSON_OID || oid === JSONB_OID
          ? asText
          : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
