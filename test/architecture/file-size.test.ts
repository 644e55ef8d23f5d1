/**
 * No source file over 400 lines: a newcomer reads a file whole, so a file holds one idea. Every
 * `.ts`/`.js` file under src/, adapters/ and test/ is counted; today's larger files are listed below, each with
 * the reason it is still large. The list only shrinks: an entry whose file is gone or back under the limit
 * fails until it is removed, and a new file over the limit fails until it is split (not listed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineCount, sourceFiles } from './source-files.js';

const LIMIT = 400;
const ROOTS = ['src', 'adapters', 'test'];

/** Files over the limit today, each to be split along the line its reason names. */
const ALLOWED: { path: string; why: string }[] = [
  { path: 'test/playground/browser.test.ts', why: 'one Chromium session for the page and the demo flows' },
  { path: 'test/discord/fake-discord.ts', why: 'the fake REST API and the gateway WebSocket together' },
  { path: 'test/slack/fake-slack.ts', why: 'the fake Web API methods and Socket Mode together' },
  {
    path: 'test/store/postgres-leader-lease.test.ts',
    why: 'real-time lease scenarios with their timing notes',
  },
  { path: 'test/slack/approvals-driver.ts', why: 'the Bolt scenario driver: every act a person can do' },
  { path: 'test/core/approvals/scenarios.ts', why: 'the shared scenario table every platform replays' },
  { path: 'test/chaos/support/rig.ts', why: 'the chaos rig: proxy, child process and simulated users' },
];

/** `path: N lines` when `source` is over the limit. */
function overLimit(path: string, source: string): string | undefined {
  const lines = lineCount(source);
  return lines > LIMIT ? `${path}: ${lines} lines` : undefined;
}

/** What is wrong with the allow-list against the files as they are: entries gone or back under the limit. */
function staleEntries(
  allowed: readonly { path: string }[],
  read: (path: string) => string | undefined,
): string[] {
  return allowed.flatMap(({ path }) => {
    const source = read(path);
    if (source === undefined) return [`${path}: no longer exists; remove it from the list`];
    const lines = lineCount(source);
    return lines > LIMIT ? [] : [`${path}: ${lines} lines, under the limit now; remove it from the list`];
  });
}

const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

describe('file size', () => {
  const files = ROOTS.flatMap(sourceFiles);

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it(`finds no file over ${LIMIT} lines outside the allow-list`, () => {
    const listed = new Set(ALLOWED.map((a) => a.path));
    const found = files
      .filter((f) => !listed.has(f))
      .flatMap((f) => overLimit(f, readFileSync(f, 'utf8')) ?? []);
    expect(found, `split these files by what they hold:\n${found.join('\n')}`).toEqual([]);
  });

  it('lists only files still over the limit, each once and with a reason', () => {
    expect(staleEntries(ALLOWED, readIfThere)).toEqual([]);
    expect(new Set(ALLOWED.map((a) => a.path)).size).toBe(ALLOWED.length);
    expect(ALLOWED.filter((a) => a.why.trim().length < 10)).toEqual([]);
  });

  it('the checks themselves count lines as an editor does and catch a stale entry', () => {
    const text = (n: number) => 'x;\n'.repeat(n);
    expect(overLimit('big.ts', text(LIMIT + 1))).toBe(`big.ts: ${LIMIT + 1} lines`);
    expect(overLimit('edge.ts', text(LIMIT))).toBeUndefined();
    expect(overLimit('no-final-newline.ts', `${text(LIMIT)}x;`)).toBe(
      `no-final-newline.ts: ${LIMIT + 1} lines`,
    );
    const sources: Record<string, string> = { 'big.ts': text(LIMIT + 5), 'small.ts': text(12) };
    const allowed = ['big.ts', 'small.ts', 'gone.ts'].map((path) => ({ path }));
    expect(staleEntries(allowed, (p) => sources[p])).toEqual([
      'small.ts: 12 lines, under the limit now; remove it from the list',
      'gone.ts: no longer exists; remove it from the list',
    ]);
  });
});
