/**
 * Compiles the bot for production: `src/main.ts` and the two CLIs (the simulator, Discord command
 * registration) bundled by esbuild into `dist/` as ES modules with source maps, with their dependencies (but for
 * the few in bundle-options.mjs's EXTERNAL); each dynamic `import()` becomes its own chunk, so what loads only when
 * configured (Slack, Discord, PostgreSQL, the simulator, the playground, the chart libraries) still loads only
 * then. The files the code reads next to itself (`new URL('./assets/…', import.meta.url)`) are copied beside
 * the chunks. It takes about a second, and `npm start` runs it first, so a start always runs what is in `src`.
 */
import { cpSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
// Built beside and swapped in whole, so a bot already running from `dist` (another replica started from this
// checkout, a test's child process) never finds it half written: same sources, same chunk names.
const out = join(root, `dist.${process.pid}`);

await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/main.ts',
    simulator: 'src/simulator/cli.ts',
    'register-commands': 'adapters/discord/register-cli.ts',
  },
  outdir: out,
  ...BUNDLE_OPTIONS,
  splitting: true,
});
// Read at run time relative to the module that reads them: simulator/media.ts and playground/static-files.ts.
cpSync(join(root, 'src/simulator/assets'), join(out, 'assets'), { recursive: true });
cpSync(join(root, 'adapters/playground/static'), join(out, 'static'), { recursive: true });
const old = join(root, `dist.${process.pid}.old`);
try {
  renameSync(dist, old);
} catch {
  // no earlier build
}
renameSync(out, dist);
rmSync(old, { recursive: true, force: true });
