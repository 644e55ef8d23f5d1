/**
 * How the PostgreSQL tables run their statements: through one executor (`PostgresTransactions.query`) that
 * picks the open transaction's connection or the pool, so a table never holds a connection itself.
 */
import pg from 'pg';
import type { Sql } from '../sql.js';

export { json, queriedJson, type Sql, withoutNul } from '../sql.js';

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

/**
 * The driver's parsers, but int8 (BIGINT row ids, count(*)) as a number rather than a string: ids stay far below
 * 2^53. float8 (the times) and json come back as numbers and parsed values already.
 */
export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? Number
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
