/**
 * The variables the bot reads, `.env.example` and the README's configuration table are one list: a variable
 * added to the code without its line in both, or documented but no longer read, fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config.js';

const root = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Variables the standalone simulator reads (`npm run simulator`), documented in its own README. */
const SIMULATOR_ONLY = ['SIM_DISABLE_RATE_LIMITS'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `process.env.X`, `env.X` and `env['X']` reads anywhere in the shipped code. */
function variablesReadBy(files: string[]): Set<string> {
  const found = new Set<string>();
  for (const file of files) {
    for (const m of read(file).matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g)) {
      found.add((m[1] ?? m[2]) as string);
    }
  }
  return found;
}

const exampleVariables = () =>
  [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] as string);

/** Names in the first column of the README's "Configuration" table. */
function readmeTableVariables(): string[] {
  const section =
    read('README.md')
      .split('### Configuration')[1]
      ?.split(/\n#{2,3} /)[0] ?? '';
  return [...section.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) =>
    [...(m[1] as string).matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((n) => n[1] as string),
  );
}

describe('configuration documentation', () => {
  it('every variable the code reads is in the configuration schema (or is the simulator’s own)', () => {
    const read = variablesReadBy([...sourceFiles('src'), ...sourceFiles('adapters')]);
    const unknown = [...read].filter((v) => !CONFIG_VARIABLES.includes(v) && !SIMULATOR_ONLY.includes(v));
    expect(unknown).toEqual([]);
    expect(read.size).toBeGreaterThan(0);
  });

  it('.env.example lists exactly the variables of the schema', () => {
    expect([...exampleVariables()].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('the README’s configuration table lists exactly the variables of the schema', () => {
    expect([...new Set(readmeTableVariables())].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('the simulator-only variables are documented in the simulator’s README', () => {
    for (const v of SIMULATOR_ONLY) expect(read('src/simulator/README.md')).toContain(v);
  });

  it('the README links nothing outside the repository', () => {
    const links = [...read('README.md').matchAll(/\]\(([^)]+)\)|`(\.\.\/[^`]+)`/g)].map((m) => m[1] ?? m[2]);
    expect(links.filter((l) => l?.startsWith('../'))).toEqual([]);
  });
});
