/**
 * The bot as `npm start` runs it: the compiled bundle (scripts/build.mjs, built once per test run by
 * build-once.ts, vitest's global setup), run by Node with source maps. Tests that start the bot as a child
 * process spawn `process.execPath` with these arguments, so they prove what production runs, not tsx.
 */
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** Node's arguments for the compiled bot; `before` go ahead of the script (e.g. `--import` of a hook). */
export const compiledBotArgs = (...before: string[]): string[] => [
  '--enable-source-maps',
  ...before,
  join(ROOT, 'dist/main.js'),
];
