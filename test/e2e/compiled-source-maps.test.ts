/**
 * The compiled bot's source maps (scripts/build.mjs): Node keeps every loaded module's map in memory under
 * `--enable-source-maps`, so the bundle's maps carry the mappings only, not the sources' text; an error in
 * the compiled bot is still reported at its TypeScript file and line, with the line itself (read from src/).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { compiledBotArgs, ROOT } from '../support/compiled-bot.js';

it('the bundle maps positions only, without the sources text', () => {
  const maps = readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.js.map'));
  expect(maps.length).toBeGreaterThan(1);
  for (const map of maps) {
    const payload = JSON.parse(readFileSync(join(ROOT, 'dist', map), 'utf8')) as Record<string, unknown>;
    expect(payload.mappings, map).toEqual(expect.any(String));
    expect(payload.sourcesContent, map).toBeUndefined();
  }
});

it('an uncaught error in the compiled bot names the TypeScript line and shows it', () => {
  // The bot's own entry, loaded as a module by Node with the production flags, refusing a bad PORT uncaught.
  const flags = compiledBotArgs();
  const main = flags.pop();
  const code = `import { startApp } from ${JSON.stringify(`file://${main}`)}; await startApp({ PORT: 'not-a-port' });`;
  const run = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', code], { cwd: ROOT });
  const stderr = run.stderr.toString();
  expect(run.status).not.toBe(0);
  expect(stderr).toMatch(/ConfigError: PORT must be a port number/);
  expect(stderr).toContain(`${join(ROOT, 'src/config.ts')}:`);
  expect(stderr).toMatch(/throw new ConfigError\(/);
});
