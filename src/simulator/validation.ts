import { z } from 'zod';
import { isOptionValue, OPTIONS, type OptionKind } from './catalog.js';
import { invalidInput } from './errors.js';

type Issue = z.core.$ZodIssue;

/** `youtubePost.title`, `platforms[1]`; the whole body is `body`. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? 'body' : out;
}

function describe(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'too_small':
      if (issue.origin === 'string') {
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      }
      if (issue.origin === 'array') return `must contain at least ${issue.minimum} item(s)`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must contain at most ${issue.maximum} item(s)`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'url') return 'must be an absolute http(s) URL';
      if (issue.format === 'datetime')
        return 'must be an ISO 8601 timestamp with a time zone, e.g. 2026-12-01T18:00:00Z';
      return issue.message;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  return `a ${expected}`;
}

/** One readable sentence naming every offending field, e.g. "script: must be at least 10 characters". */
export function formatIssues(issues: readonly Issue[]): string {
  const parts: string[] = [];
  for (const issue of issues.slice(0, 5)) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) parts.push(`${fieldPath([...issue.path, key])}: unknown field`);
    } else {
      parts.push(`${fieldPath(issue.path)}: ${describe(issue)}`);
    }
  }
  return parts.join('; ');
}

/** Parses with `schema` or throws 400 invalid_input naming the fields. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // reportInput lets the formatter tell a missing field ("is required") from a wrongly typed one.
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw invalidInput(formatIssues(result.error.issues));
  return result.data;
}

/** Query string as a flat object; a repeated parameter is an error (no endpoint takes lists in the query). */
export function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of query) {
    if (name in out) throw invalidInput(`${name}: given more than once`);
    out[name] = value;
  }
  return out;
}

/** Strict integer in the query, e.g. `page=2` (not `2.5`, not `two`). */
export const queryInt = (min: number, max?: number) =>
  z
    .string()
    .regex(/^-?\d+$/, { message: 'must be an integer' })
    .transform(Number)
    .pipe(max === undefined ? z.number().min(min) : z.number().min(min).max(max));

export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

export const paginationQuery = {
  page: queryInt(1).default(1),
  limit: queryInt(1, 100).default(20),
};

export interface Page {
  page: number;
  limit: number;
}

export function paginate<T>(
  items: readonly T[],
  { page, limit }: Page,
): { items: T[]; pagination: { page: number; limit: number; total: number } } {
  const start = (page - 1) * limit;
  return { items: items.slice(start, start + limit), pagination: { page, limit, total: items.length } };
}

/** Catalog-backed string fields ("list: GET /options?kind=…"): unknown values name the field and the catalog. */
export function requireOption(kind: OptionKind, field: string, value: string | undefined): void {
  if (value === undefined || isOptionValue(kind, value)) return;
  const sample = OPTIONS[kind].map((item) => item.value).join(', ');
  throw invalidInput(`${field}: unknown value '${value}'; see GET /options?kind=${kind} (${sample})`);
}
