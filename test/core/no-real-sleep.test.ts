/**
 * Tests move time instead of waiting for it: no fixed real sleep in `test/` outside the suites that
 * exist to measure real time. A deadline is tested by holding the work at a latch and moving the `TestClock`;
 * "nothing happened" by waiting for a later event, not for a while. A line that must touch real time (a
 * helper polling a real local server until its condition holds, a child process kept alive) says why with
 * `real-time-ok: <reason>`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Suites about real time: a real file lock, chaos with real processes, a real browser. */
const ALLOWED: { path: string; why: string }[] = [
  { path: 'test/chaos/', why: 'kills, faults and stalls measured in real time' },
  { path: 'test/store/locked-database.test.ts', why: 'a real SQLite file lock held by a second connection' },
  { path: 'test/support/db-faults.ts', why: 'the lock and wall clock of the two suites above' },
  { path: 'test/support/tcp-proxy.ts', why: 'a real TCP proxy adding real network delay' },
  {
    path: 'test/replicas/tcp-proxy.test.ts',
    why: 'measures that proxy’s delay and partitions on real sockets',
  },
  { path: 'test/playground/browser.test.ts', why: 'Playwright drives a real browser' },
  { path: 'test/e2e/playground-flow.test.ts', why: 'Playwright drives a real browser' },
  {
    path: 'test/e2e/startup-quiet.test.ts',
    why: 'the app as npm start runs it, a child process polled until it answers',
  },
  {
    path: 'test/e2e/lazy-charts.test.ts',
    why: 'the app as a child process recording its imports, polled until it answers',
  },
  { path: 'test/core/no-real-sleep.test.ts', why: 'this file names the patterns' },
];

/** A timer of the runtime, or a bare `sleep(…)`/`delay(…)` helper (a clock's `.sleep(` is virtual). */
const REAL_WAIT = [
  /\bset(?:Timeout|Interval)\s*\(/,
  /['"](?:node:)?timers\/promises['"]/,
  /(?<![.\w])(?:sleep|delay|wait)\s*\(\s*\d/,
  /\bAtomics\.wait\s*\(/,
];
const MARKER = /real-time-ok:\s*\S/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.m?ts$/.test(path) ? [path] : [];
  });
}

/** `file:line: text` for each real wait in `source` not marked on its line or the line before. */
function realWaits(file: string, source: string): string[] {
  const lines = source.split('\n');
  return lines.flatMap((text, i) => {
    if (!REAL_WAIT.some((pattern) => pattern.test(text))) return [];
    if (MARKER.test(text) || MARKER.test(lines[i - 1] ?? '')) return [];
    return [`${file}:${i + 1}: ${text.trim()}`];
  });
}

describe('no real sleep in tests', () => {
  const checked = files('test')
    .map((f) => f.split('\\').join('/'))
    .filter((f) => !ALLOWED.some((a) => f.startsWith(a.path)));

  it('has files to check', () => {
    expect(checked.length).toBeGreaterThan(50);
  });

  it('finds no timer or fixed sleep outside the real-time suites', () => {
    const found = checked.flatMap((file) => realWaits(file, readFileSync(file, 'utf8')));
    expect(found, `move the TestClock or await an event instead:\n${found.join('\n')}`).toEqual([]);
  });

  it('the check itself catches the usual shapes and spares virtual time', () => {
    const sample = [
      'await new Promise((r) => setTimeout(r, 3000));',
      'await sleep(80);',
      "import { setTimeout } from 'node:timers/promises';",
      'await h.clock.sleep(1_000);',
      'w.h.clock.advance(2_500);',
      '// real-time-ok: polls the fake server until the condition holds',
      'await new Promise((r) => setTimeout(r, 10));',
    ].join('\n');
    expect(realWaits('x.ts', sample).map((l) => l.split(':')[1])).toEqual(['1', '2', '3']);
  });
});
