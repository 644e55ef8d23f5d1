/** Keeps docs/api-coverage.md true: every route, client method and error type listed, every file real. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as apiExports from '../../src/api/index.js';
import { createVideoApiClient } from '../../src/api/index.js';
import { hasMessage, say } from '../../src/core/text/messages.js';
import { ALL_ROUTES } from '../../src/simulator/dispatcher.js';

const ROOT = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/api-coverage.md', ROOT), 'utf8');
const section = (title: string) => doc.split(`## ${title}`)[1]?.split('\n## ')[0] ?? '';
const SEPARATOR = /^\|[\s:|-]+\|$/;
/** Table body rows as cells (cell 0 is the empty text before the first `|`); header rows skipped. */
const rows = (text: string) => {
  const lines = text.split('\n');
  return lines
    .filter((line, i) => line.startsWith('|') && !SEPARATOR.test(line) && !SEPARATOR.test(lines[i + 1] ?? ''))
    .map((line) => line.split('|').map((cell) => cell.trim()));
};

/** The error types of spec §7. */
const DOCUMENTED_TYPES = [
  'invalid_input',
  'unauthorized',
  'insufficient_credits',
  'forbidden_scope',
  'usage_limit_reached',
  'not_found',
  'conflict',
  'rate_limited',
  'internal_error',
];

describe('docs/api-coverage.md', () => {
  const endpoints = rows(section('Endpoints'));

  it('one row per simulator route, naming the route file that defines it', () => {
    const documented = endpoints.map((cells) => cells[2]?.replace(/`/g, ''));
    const served = ALL_ROUTES.map((r) => `${r.method} ${r.pattern}`);
    expect([...documented].sort()).toEqual([...served].sort());
    for (const cells of endpoints) {
      const [method, pattern] = (cells[2] ?? '').replace(/`/g, '').split(' ');
      const file = (cells[5] ?? '').replace(/`/g, '');
      const source = readFileSync(new URL(file, ROOT), 'utf8');
      expect(source, `${method} ${pattern} in ${file}`).toMatch(
        new RegExp(`method: '${method}',\\s*pattern: '${pattern?.replace(/[{}]/g, '\\$&')}'`),
      );
    }
  });

  it('every client method appears exactly once', () => {
    const api = createVideoApiClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'fl_live_doc_check' });
    const resources = [
      'me',
      'credits',
      'videos',
      'renders',
      'series',
      'posts',
      'accounts',
      'voices',
      'options',
    ];
    const methods = [...resources, 'assets', 'analytics'].flatMap((r) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(api[r as keyof typeof api]))
        .filter((m) => m !== 'constructor')
        .map((m) => `api.${r}.${m}`),
    );
    const documented = endpoints.flatMap((cells) => (cells[4] ?? '').match(/api\.\w+\.\w+/g) ?? []);
    expect([...documented].sort()).toEqual([...methods].sort());
  });

  it('every error type: a client class the API exports, a core message code, listed tests', () => {
    const errors = rows(section('Error types').split('The client also')[0] ?? '');
    const types = errors.map((cells) => cells[1]?.replace(/`/g, ''));
    expect(new Set(types)).toEqual(new Set(DOCUMENTED_TYPES));
    for (const cells of errors) {
      const className = (cells[4] ?? '').match(/`(\w+)`/)?.[1] ?? '';
      expect(Object.keys(apiExports), className).toContain(className);
      const code = (cells[5] ?? '').replace(/`/g, '');
      expect(code).toBe(`api.${cells[1]?.replace(/`/g, '')}`);
      expect(hasMessage(code), code).toBe(true);
      if (hasMessage(code)) expect(say(code, { message: 'm' })).not.toBe(`Something went wrong (${code}).`);
    }
  });

  it('every file it names exists, and every contract test file is named', () => {
    const named = new Set(doc.match(/(?:src|test)\/[\w./-]+\.ts/g) ?? []);
    for (const file of named) expect(existsSync(new URL(file, ROOT)), file).toBe(true);
    const contractFiles = readdirSync(new URL('test/contract/', ROOT))
      .filter((f) => f.endsWith('.test.ts') && f !== 'coverage.test.ts')
      .map((f) => `test/contract/${f}`);
    for (const file of contractFiles) expect(named, file).toContain(file);
  });
});
