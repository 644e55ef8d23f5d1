/**
 * Vitest's global setup: compiles the bot once before any test file runs (scripts/build.mjs, under a second),
 * so the suites that start it as a child process run the compiled bundle `npm start` runs.
 */
import { execFileSync } from 'node:child_process';
import { ROOT } from './compiled-bot.js';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}
