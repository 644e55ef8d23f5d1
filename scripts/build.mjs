/**
 * Compiles the bot for production: `src/main.ts` and the two CLIs (the simulator, Discord command
 * registration) bundled by esbuild into `dist/` as ES modules with source maps, with their dependencies (but for
 * the few in EXTERNAL); each dynamic `import()` becomes its own chunk, so what loads only when
 * configured (Slack, Discord, PostgreSQL, the simulator, the playground, the chart libraries) still loads only
 * then. The files the code reads next to itself (`new URL('./assets/…', import.meta.url)`) are copied beside
 * the chunks. It takes about two seconds, and `npm start` runs it first, so a start always runs what is in `src`.
 */
import { cpSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Packages left to node_modules; see `external` below. */
const EXTERNAL = [
  'better-sqlite3',
  '@resvg/resvg-js',
  'pino',
  'echarts',
  'zrender',
  'dejavu-fonts-ttf',
  'pg-native',
  'zlib-sync',
  'bufferutil',
  'utf-8-validate',
];

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
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies are bundled too: one file per chunk for the loader to read and compile, not the thousands of
  // a node_modules tree (see docs/performance.md). Left external: native modules, what is loaded by file path at
  // run time (pino's worker transports), optional native speed-ups the libraries try to require, and the chart
  // libraries, which load on the first chart and are large.
  external: EXTERNAL,
  // CommonJS libraries inside ES module chunks still call `require` (Node's built-ins, the externals).
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Smaller chunks to read, parse and keep (Node holds every module's text): whitespace and syntax only, so
  // names stay as written for stack traces and `constructor.name`.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  // Node keeps every loaded module's map in memory under --enable-source-maps: without the sources' text in
  // them they are a third the size, and an uncaught error's excerpt is read from the file in src/ instead.
  sourcesContent: false,
  logLevel: 'warning',
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
