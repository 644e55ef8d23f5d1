/**
 * The tolerant reader, as properties (DESIGN §6). For every response schema exported from src/api/wire, next to
 * documented example responses: (a) unknown fields at every level, the envelope included, change nothing the bot
 * needs; (b) an optional field of any other JSON type, and (c) an optional field removed, still parse, with the
 * same required fields.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as common from '../../src/api/wire/common.js';
import {
  cases,
  expectReadWithRequired,
  getAt,
  inResponse,
  OF_TYPE,
  optionalPaths,
  schemaFor,
  setAt,
  TABLE_SCHEMAS,
  TYPES,
  typeOf,
  wireSchemas,
  withUnknownFields,
  wrapped,
} from './response-mutations.js';
import { TABLE } from './wire-examples.js';

describe('the table covers every response schema', () => {
  it('each *Wire exported from src/api/wire has documented examples here, and no other entry', () => {
    const exported = wireSchemas().map(([name]) => name);
    expect(exported.length).toBeGreaterThan(0);
    expect([...exported].sort()).toEqual(Object.keys(TABLE).sort());
  });

  it.each(cases)('%s: the example itself is read', (_label, name, example) => {
    expectReadWithRequired(name, example, wrapped(example.body, example.wrap));
  });

  it.each(cases)('%s: each listed required field is required', (_label, name, example) => {
    const schema = schemaFor(TABLE_SCHEMAS[name] as z.ZodType, example.wrap);
    for (const field of example.required) {
      const path = inResponse(field.split('.'), example.wrap);
      const read = common.readTolerantly(schema, setAt(wrapped(example.body, example.wrap), path, undefined));
      expect(read.ok, `${name} without ${field}`).toBe(false);
      const reported = inResponse((example.reportedAs?.[field] ?? field).split('.'), example.wrap);
      if (!read.ok) expect(read.fields).toContain(common.fieldPath(reported));
    }
  });
});

describe('(a) unknown fields at every level, the envelope included', () => {
  it.each(cases)('%s', (_label, name, example) => {
    fc.assert(
      fc.property(withUnknownFields(wrapped(example.body, example.wrap)), (response) => {
        expectReadWithRequired(name, example, response);
      }),
      { numRuns: 40 },
    );
  });
});

describe('(b) an optional field of every other JSON type', () => {
  it.each(cases)('%s', (_label, name, example) => {
    for (const path of optionalPaths(example)) {
      const current = typeOf(getAt(example.body, path));
      for (const type of TYPES.filter((t) => t !== current)) {
        fc.assert(
          fc.property(OF_TYPE[type], (value) => {
            const body = setAt(example.body, path, value);
            expectReadWithRequired(name, example, wrapped(body, example.wrap));
          }),
          { numRuns: type === 'null' ? 1 : 4 },
        );
      }
    }
  });
});

describe('(c) an optional field removed', () => {
  it.each(cases)('%s', (_label, name, example) => {
    for (const path of optionalPaths(example)) {
      expectReadWithRequired(name, example, wrapped(setAt(example.body, path, undefined), example.wrap));
    }
  });
});
