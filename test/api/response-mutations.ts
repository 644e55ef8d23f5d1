/**
 * Responses mutated as the tolerant reader must survive: unknown fields added, optional fields of another type or
 * removed, and the checks that the bot still reads what it needs.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { z } from 'zod';
import * as common from '../../src/api/wire/common.js';
import { type Example, type Json, MODULES, PAGE, type Path, TABLE, type Wrap } from './wire-examples.js';

export const wireSchemas = (): [string, z.ZodType][] =>
  Object.values(MODULES).flatMap((module) =>
    Object.entries(module).filter((entry): entry is [string, z.ZodType] => entry[0].endsWith('Wire')),
  );

// ---------------------------------------------------------------------------------------------------------
// JSON paths and values

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every object property in `value`, nested ones and those inside list items included. */
function fieldPaths(value: Json, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => fieldPaths(item, [...prefix, i]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, field]) => [
    [...prefix, key],
    ...fieldPaths(field, [...prefix, key]),
  ]);
}

const dotted = (path: Path): string => path.join('.');

export function getAt(value: unknown, path: Path): unknown {
  let node = value;
  for (const key of path) node = (node as Record<string | number, unknown> | undefined)?.[key];
  return node;
}

/** A copy of `value` with the field at `path` set to `replacement`, or removed when it is `undefined`. */
export function setAt(value: Json, path: Path, replacement: Json | undefined): Json {
  const copy = structuredClone(value);
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1] as string | number;
  if (replacement === undefined) delete parent[key];
  else parent[key] = replacement;
  return copy;
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
export const typeOf = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType);

const small = fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>;
export const OF_TYPE: Record<JsonType, fc.Arbitrary<Json>> = {
  null: fc.constant(null),
  boolean: fc.boolean(),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  string: fc.string({ maxLength: 12 }),
  array: fc.array(small, { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), small, { maxKeys: 3 }) as fc.Arbitrary<Json>,
};
export const TYPES = Object.keys(OF_TYPE) as JsonType[];

/** Keys no schema reads: a prefix keeps a random name from landing on a real field. */
const unknownKey = fc.string({ minLength: 1, maxLength: 10 }).map((s) => `u_${s}`);

/** `value` with up to two unknown fields added to every object in it. */
export function withUnknownFields(value: Json): fc.Arbitrary<Json> {
  if (Array.isArray(value)) return fc.tuple(...value.map(withUnknownFields)) as fc.Arbitrary<Json>;
  if (!isObject(value)) return fc.constant(value);
  const fields = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withUnknownFields(v)]));
  return fc
    .tuple(
      fc.record(fields),
      fc.dictionary(unknownKey, fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxKeys: 2 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));
}

export function wrapped(body: Json, wrap: Wrap = 'data'): Json {
  if (wrap === 'none') return body;
  return wrap === 'paged' ? { success: true, data: body, pagination: PAGE } : { success: true, data: body };
}

export function schemaFor(schema: z.ZodType, wrap: Wrap = 'data'): z.ZodType {
  if (wrap === 'none') return schema;
  return wrap === 'paged' ? common.pagedEnvelope(schema) : common.envelope(schema);
}

/** The path of a field of `body` inside the whole response. */
export const inResponse = (path: Path, wrap: Wrap = 'data'): Path =>
  wrap === 'none' ? path : ['data', ...path];

/**
 * Parses a whole response as the client does, and checks the required fields came through: the same
 * value for a leaf, present for a part (whose optional contents may have been changed on purpose).
 */
export function expectReadWithRequired(name: string, example: Example, response: Json): void {
  const read = common.readTolerantly(schemaFor(TABLE_SCHEMAS[name] as z.ZodType, example.wrap), response);
  if (!read.ok) throw new Error(`${name}: not read (${read.fields.join(', ')})`);
  const original = wrapped(example.body, example.wrap);
  for (const field of example.required) {
    const path = inResponse(field.split('.'), example.wrap);
    const expected = getAt(original, path);
    if (typeof expected === 'object' && expected !== null)
      expect(getAt(read.data, path), `${name} ${field}`).toBeDefined();
    else expect(getAt(read.data, path), `${name} ${field}`).toEqual(expected);
  }
}

export const TABLE_SCHEMAS: Record<string, z.ZodType> = Object.fromEntries(wireSchemas());

export const cases = Object.entries(TABLE).flatMap(([name, examples]) =>
  examples.map((example, i) => [`${name} #${i + 1}`, name, example] as const),
);

export const optionalPaths = (example: Example): Path[] =>
  fieldPaths(example.body).filter((path) => !example.required.includes(dotted(path)));

// ---------------------------------------------------------------------------------------------------------
