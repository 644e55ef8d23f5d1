import { z } from 'zod';

/**
 * Wire-level helpers: a tolerant reader (DESIGN §6). Response schemas hold only what the bot reads; unknown
 * fields are dropped. A field the bot can live without is *forgiving*: missing or null reads as absent, an
 * unambiguous other type is coerced (`"60"` → 60, `"true"` → true, a numeric id → `"42"`), anything else
 * is dropped — counted as drift, never a failure. A list item without what it needs is dropped the same way.
 * Only a *required* field that is missing or unusable fails the parse.
 *
 * Drift is found without slowing the common case: `readTolerantly` parses once, forgivingly, while the
 * helpers count what they drop or coerce. Only when that count is not zero does it parse a second time in
 * strict mode, where the same helpers report each drop as an issue: zod gives the issue its full path.
 */

/** Module state for the parse in progress (parsing is synchronous, so one parse at a time). */
const state = { strict: false, drift: 0 };

/** How a forgiving read went: usable as is, usable after a coercion, or unusable. */
type Read<T> = { ok: true; value: T; coerced?: true } | { ok: false };

const usable = <T>(value: T): Read<T> => ({ ok: true, value });
const coerced = <T>(value: T): Read<T> => ({ ok: true, value, coerced: true });
const UNUSABLE: Read<never> = { ok: false };

const DROPPED = 'dropped: unexpected type or shape';
const COERCED = 'coerced from another JSON type';

/** A value the service left out: absent or null. */
const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;

/**
 * Bounds on what is kept of a string (a hostile service's 400 MB `team.name` must not be stored).
 * Longer text is cut (counted as drift); an overlong id is no id.
 */
export const MAX_TEXT_LENGTH = 16_000;
/** Names of teams, videos, series, voices and accounts (spec §8: names are at most 120 characters). */
export const MAX_NAME_LENGTH = 120;
/** An error message from the service, shown to the member. */
export const MAX_MESSAGE_LENGTH = 2_000;
const MAX_ID_LENGTH = 256;

function readString(max: number) {
  return (value: unknown): Read<string> => {
    if (typeof value !== 'string') return UNUSABLE;
    return value.length <= max ? usable(value) : coerced(`${value.slice(0, max - 1)}…`);
  };
}

/** Ids and labels: a finite number is unambiguous as text (`42` → `"42"`). */
function readId(value: unknown): Read<string> {
  if (typeof value === 'string') return value.length <= MAX_ID_LENGTH ? usable(value) : UNUSABLE;
  if (typeof value === 'number' && Number.isFinite(value)) return coerced(String(value));
  return UNUSABLE;
}

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

function readNumber(value: unknown): Read<number> {
  if (typeof value === 'number') return Number.isFinite(value) ? usable(value) : UNUSABLE;
  if (typeof value === 'string' && NUMERIC.test(value)) return coerced(Number(value));
  return UNUSABLE;
}

function readBoolean(value: unknown): Read<boolean> {
  if (typeof value === 'boolean') return usable(value);
  if (value === 'true' || value === 'false') return coerced(value === 'true');
  return UNUSABLE;
}

/** In strict mode, reports a drop or coercion as an issue (zod adds the path); otherwise counts it. */
function drift(ctx: z.core.$RefinementCtx, message: string): boolean {
  if (state.strict) {
    ctx.addIssue({ code: 'custom', message });
    return true;
  }
  state.drift++;
  return false;
}

function forgiving<T>(read: (value: unknown) => Read<T>) {
  return z
    .unknown()
    .transform((value, ctx): T | undefined => {
      if (isAbsent(value)) return undefined;
      const result = read(value);
      if (result.ok && !result.coerced) return result.value;
      if (drift(ctx, result.ok ? COERCED : DROPPED)) return z.NEVER;
      return result.ok ? result.value : undefined;
    })
    .optional();
}

function required<T>(read: (value: unknown) => Read<T>, expected: string) {
  return z.unknown().transform((value, ctx): T => {
    const result = isAbsent(value) ? UNUSABLE : read(value);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: isAbsent(value) ? 'missing' : `not ${expected}` });
      return z.NEVER;
    }
    if (result.coerced && drift(ctx, COERCED)) return z.NEVER;
    return result.value;
  });
}

/** Longest URL kept: signed media URLs run to a few hundred characters; anything far longer is not one. */
export const MAX_URL_LENGTH = 2048;

/**
 * Only `http(s)` URLs of a sane length: a URL from the service ends up in chat blocks, buttons and embeds,
 * where a `javascript:` or `data:` one (a hostile or broken service) would be refused or worse.
 */
function readUrl(value: unknown): Read<string> {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || !URL.canParse(value)) return UNUSABLE;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:' ? usable(value) : UNUSABLE;
}

/** Optional text of at most `max` characters (cut beyond); anything but a string is dropped. */
export const optText = (max = MAX_TEXT_LENGTH) => forgiving(readString(max));
/** An optional name (cut at 120 characters). */
export const optName = () => optText(MAX_NAME_LENGTH);
/** Optional http(s) URL (at most `MAX_URL_LENGTH`); anything else is dropped. */
export const optUrl = () => forgiving(readUrl);
/** Required http(s) URL. */
export const reqUrl = () => required(readUrl, 'an http(s) URL');
/** Optional id or label; a number becomes its text. */
export const optId = () => forgiving(readId);
/** Optional number; a numeric string becomes the number. */
export const optNumber = () => forgiving(readNumber);
/** Optional boolean; `"true"`/`"false"` become booleans. */
export const optBoolean = () => forgiving(readBoolean);

/** The most of an open settings object kept (a series' `thumbnailSettings`: its contents are not documented). */
const MAX_SETTINGS_KEYS = 50;
/** Optional JSON object of settings, kept as given when small; anything else is dropped. */
export const optSettings = () =>
  forgiving((value): Read<Record<string, unknown>> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return UNUSABLE;
    const keys = Object.keys(value);
    return keys.length <= MAX_SETTINGS_KEYS && JSON.stringify(value).length <= MAX_TEXT_LENGTH
      ? usable(value as Record<string, unknown>)
      : UNUSABLE;
  });
/** Optional closed set of values (what the bot sends back, e.g. privacy); anything else is dropped. */
export function optEnum<const T extends readonly string[]>(values: T) {
  return forgiving(
    (value): Read<T[number]> =>
      typeof value === 'string' && values.includes(value) ? usable(value as T[number]) : UNUSABLE,
  );
}

/** Required text (an open value such as a status stays a plain string). */
export const reqText = (max = MAX_TEXT_LENGTH) => required(readString(max), 'a string');
/** A required name (cut at 120 characters). */
export const reqName = () => reqText(MAX_NAME_LENGTH);
/** Required id; a number becomes its text. */
export const reqId = () => required(readId, 'an id');
/** Required number; a numeric string becomes the number. */
export const reqNumber = () => required(readNumber, 'a number');

/** Issues of a nested parse, re-added under `prefix` so zod completes their paths. */
function reissue(ctx: z.core.$RefinementCtx, issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]) {
  for (const issue of issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: [...prefix, ...issue.path] });
  }
}

/** An optional part (an object, usually): dropped whole when it does not parse. */
export function optPart<T extends z.ZodType>(schema: T) {
  return z
    .unknown()
    .transform((value, ctx): z.output<T> | undefined => {
      if (isAbsent(value)) return undefined;
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      if (state.strict) {
        reissue(ctx, parsed.error.issues, []);
        return z.NEVER;
      }
      state.drift++;
      return undefined;
    })
    .optional();
}

/**
 * Parses each part of a container (a list's items, an object's entries); a part that does not parse is
 * dropped, or reported under `pathKey(key)` when reading strictly. `undefined` when a part was reported.
 */
function readParts<K, T extends z.ZodType>(
  { schema, pathKey }: { schema: T; pathKey: (key: K) => PropertyKey },
  parts: [K, unknown][],
  ctx: z.core.$RefinementCtx,
): [K, z.output<T>][] | undefined {
  const out: [K, z.output<T>][] = [];
  let failed = false;
  for (const [key, part] of parts) {
    const parsed = schema.safeParse(part);
    if (parsed.success) out.push([key, parsed.data]);
    else if (state.strict) {
      reissue(ctx, parsed.error.issues, [pathKey(key)]);
      failed = true;
    } else state.drift++;
  }
  return failed ? undefined : out;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A kind of container read part by part: what it must be, its name in an issue, and how its parts read. */
interface Container<V, Out> {
  is: (value: unknown) => value is V;
  noun: string;
  read: (value: V, ctx: z.core.$RefinementCtx) => Out | undefined;
}

/** A list; an issue names its item by index. */
const list = <T extends z.ZodType>(item: T): Container<unknown[], z.output<T>[]> => ({
  is: Array.isArray,
  noun: 'a list',
  read: (value, ctx) =>
    readParts({ schema: item, pathKey: (i) => i }, [...value.entries()], ctx)?.map(([, parsed]) => parsed),
});

/**
 * An object keyed by open values; an issue names its key `*`: a metric label never carries a value the
 * service chose.
 */
const record = <T extends z.ZodType>(
  schema: T,
): Container<Record<string, unknown>, Record<string, z.output<T>>> => ({
  is: isObject,
  noun: 'an object',
  read: (value, ctx) => {
    const parts = readParts({ schema, pathKey: () => '*' }, Object.entries(value), ctx);
    return parts && Object.fromEntries(parts);
  },
});

/** An optional container: absent → undefined; another kind → dropped; a part that does not parse → dropped. */
function optContainer<V, Out>({ is, read }: Container<V, Out>) {
  return z
    .unknown()
    .transform((value, ctx): Out | undefined => {
      if (isAbsent(value)) return undefined;
      if (!is(value)) return drift(ctx, DROPPED) ? z.NEVER : undefined;
      return read(value, ctx) ?? z.NEVER;
    })
    .optional();
}

/** A container the operation needs: absent or another kind fails; a part that does not parse is dropped. */
function reqContainer<V, Out>({ is, noun, read }: Container<V, Out>) {
  return z.unknown().transform((value, ctx): Out => {
    if (!is(value)) {
      ctx.addIssue({ code: 'custom', message: isAbsent(value) ? 'missing' : `not ${noun}` });
      return z.NEVER;
    }
    return read(value, ctx) ?? z.NEVER;
  });
}

/** An optional list: not an array → dropped; an item that does not parse → dropped. */
export const optList = <T extends z.ZodType>(item: T) => optContainer(list(item));

/** A list the operation needs (e.g. `data` of GET /videos): not an array fails; bad items are dropped. */
export const reqList = <T extends z.ZodType>(item: T) => reqContainer(list(item));

/** An optional object keyed by open values (platforms): not an object → dropped; a bad value → dropped. */
export const optRecord = <T extends z.ZodType>(schema: T) => optContainer(record(schema));

/** An object keyed by open values that the operation needs (`data` of GET /accounts). */
export const reqRecord = <T extends z.ZodType>(schema: T) => reqContainer(record(schema));

/** Picks the schema for a value (one of two documented shapes); its issues keep their paths. */
export function shapeOf<T extends z.ZodType>(pick: (value: unknown) => T) {
  return z.unknown().transform((value, ctx): z.output<T> => {
    const parsed = pick(value).safeParse(value);
    if (parsed.success) return parsed.data;
    reissue(ctx, parsed.error.issues, []);
    return z.NEVER;
  });
}

/** The outcome of `readTolerantly`. `drift` counts dropped or coerced values by field path. */
export type TolerantRead<T> =
  | { ok: true; data: T; drift: Map<string, number> }
  | { ok: false; fields: string[] };

/**
 * `data.thumbnails.variants[].score`: dotted, with list indexes as `[]` (`*` stands for an open key);
 * `body` when the body itself is unusable.
 */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += '[]';
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out || 'body';
}

/** Parses `json` forgivingly (see the top of this file); on drift, a second strict parse names the fields. */
export function readTolerantly<S extends z.ZodType>(schema: S, json: unknown): TolerantRead<z.output<S>> {
  state.strict = false;
  state.drift = 0;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => fieldPath(issue.path)))];
    return { ok: false, fields };
  }
  const drift = new Map<string, number>();
  if (state.drift > 0) {
    state.strict = true;
    try {
      const strict = schema.safeParse(json);
      for (const issue of strict.error?.issues ?? []) {
        const field = fieldPath(issue.path);
        drift.set(field, (drift.get(field) ?? 0) + 1);
      }
    } finally {
      state.strict = false;
    }
  }
  return { ok: true, data: parsed.data, drift };
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

/** `pagination` of a paginated list: the total is needed to page; page and limit default to the query's. */
export const PageWire = z.object({ page: optNumber(), limit: optNumber(), total: reqNumber() });

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
  error: z.object({ type: optText(MAX_NAME_LENGTH), message: optText(MAX_MESSAGE_LENGTH) }),
});

/** DELETE responses: `deleted` / `cancelled`; a 200 without it means it was done. */
export const DeletedWire = z.object({ deleted: optBoolean() });

/** Domain pagination; a page or limit the service left out is the one asked for. */
export function toPage(
  wire: z.output<typeof PageWire>,
  query: { page?: number | undefined; limit?: number | undefined },
): { page: number; limit: number; total: number } {
  return { page: wire.page ?? query.page ?? 1, limit: wire.limit ?? query.limit ?? 20, total: wire.total };
}
