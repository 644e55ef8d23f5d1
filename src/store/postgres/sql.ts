/**
 * How the PostgreSQL tables run their statements: through one executor (`PostgresTransactions.query`) that
 * picks the open transaction's connection or the pool, so a table never holds a connection itself.
 */
import pg from 'pg';

/** Runs one statement on the right connection. */
export type Query = (text: string, params?: readonly unknown[]) => Promise<pg.QueryResult>;

/** One statement's rows, or how many rows it changed. */
export interface Sql {
  /** Every row, in the statement's order. */
  rows<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** The first row, if any. */
  row<R>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** How many rows the statement inserted, updated or deleted. */
  count(text: string, params?: readonly unknown[]): Promise<number>;
}

export function sqlOver(query: Query): Sql {
  return {
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

/** A JSON value as a statement parameter (`$1::json` where the column's type does not tell the driver). */
export const json = (value: unknown): string => JSON.stringify(value);

/**
 * PostgreSQL text holds no NUL: a TEXT parameter with one is refused, and so is `\u0000` in a JSON document its
 * operators read (`item ->> 'cardKey'` de-escapes every string of the document, so one row would fail the query
 * over all rows). Free text a user or a platform wrote (a rejection reason, an error) loses its NULs to U+FFFD.
 */
export const withoutNul = (text: string): string => text.replaceAll('\u0000', '\ufffd');

/** A JSON value for a column whose fields the store reads in SQL; JSON nobody queries keeps its text as written. */
export const queriedJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? withoutNul(v) : v));
