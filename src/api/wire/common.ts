import { z } from 'zod';

/**
 * Wire-level helpers. Response schemas are never `.strict()`: unknown fields are dropped, and values the
 * spec leaves open stay plain strings.
 */

/** An optional field that may also arrive as `null`; both read as absent. */
export function opt<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? undefined);
}

/** An optional field whose unexpected values are dropped instead of failing the whole response. */
export function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops `undefined` values so optional domain fields are absent rather than `undefined`. */
export function compact<T extends object>(value: T): Compact<T> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = field;
  return out as Compact<T>;
}

export const PageWire = z.object({ page: z.number(), limit: z.number(), total: z.number() });

/** `{ success: true, data }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** `{ success: true, data, pagination }` of a paginated list. */
export function pagedEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, pagination: PageWire });
}

/** `{ success: false, error: { type, message } }`, read tolerantly: any part may be missing. */
export const ErrorBodyWire = z.object({
  error: z.object({ type: lenient(z.string()), message: lenient(z.string()) }),
});

export const DeletedWire = z.object({ deleted: z.boolean() });
