/**
 * How the tables (src/store/tables/) run their statements on PostgreSQL: through one executor
 * (`PostgresTransactions.query`) that picks the open transaction's connection or the pool, so a table never
 * holds a connection itself.
 */
import pg from 'pg';
import type { Sql } from '../sql.js';

/** Runs one statement on the right connection. */
export type Query = (text: string, params?: readonly unknown[]) => Promise<pg.QueryResult>;

export function sqlOver(query: Query): Sql {
  return {
    dialect: 'postgres',
    rows: async <R>(text: string, params?: readonly unknown[]) => (await query(text, params)).rows as R[],
    row: async <R>(text: string, params?: readonly unknown[]) =>
      (await query(text, params)).rows[0] as R | undefined,
    count: async (text, params) => (await query(text, params)).rowCount ?? 0,
  };
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
