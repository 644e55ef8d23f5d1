import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FORBIDDEN = ['@slack/', 'discord.js', 'undici', 'better-sqlite3', '@discordjs/', 'pino', 'prom-client'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('core boundary', () => {
  const coreFiles = files('src/core');

  it('has files to check', () => {
    expect(coreFiles.length).toBeGreaterThan(10);
  });

  it('imports no SDK, database or HTTP library (ports only)', () => {
    const offenders: string[] = [];
    for (const file of coreFiles) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const spec = match[1] as string;
        if (FORBIDDEN.some((f) => spec === f || spec.startsWith(f))) offenders.push(`${file}: ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the check itself catches an SDK import', () => {
    const sample = "import { App } from '@slack/bolt';";
    const specs = [...sample.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    expect(specs.some((s) => FORBIDDEN.some((f) => s?.startsWith(f)))).toBe(true);
  });

  it('imports nothing outside src/core except node builtins and pure libraries', () => {
    const outside: string[] = [];
    for (const file of coreFiles) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/from\s*['"](\.\.\/[^'"]+)['"]/g)) {
        const depth = file.split('/').length - 2; // src/core/x.ts → 1 level inside core
        const ups = (match[1] as string).split('/').filter((p) => p === '..').length;
        if (ups >= depth) outside.push(`${file}: ${match[1]}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
