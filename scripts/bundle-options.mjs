/**
 * How the bot is bundled for production (scripts/build.mjs), shared with the cold-start bench's floor of the
 * libraries (bench/cold-start-libraries.ts), so that floor is bundled exactly as the bot is.
 */

/**
 * Packages left to node_modules: native modules, what is loaded by file path at run time (pino's worker
 * transports), optional native speed-ups the libraries try to require, and the chart libraries, which load on
 * the first chart and are large. Everything else is bundled: one file per chunk for the loader to read and
 * compile, not the thousands of a node_modules tree (docs/performance.md, "The libraries bundled").
 */
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

/** @type {import('esbuild').BuildOptions} */
export const BUNDLE_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
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
};
