/**
 * An ESM resolve hook that writes the URL of every module the process resolves (once each) to the file named by
 * RECORD_IMPORTS: what a test reads to know which libraries a running app has loaded so far. Imported with
 * `node --import tsx --import ./test/support/record-imports.mjs src/main.ts`; on the main thread it registers
 * itself (Node's `module.register`), and Node runs the hook on its hooks thread.
 */
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

const seen = new Set();

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const file = process.env.RECORD_IMPORTS;
  if (file && !seen.has(resolved.url)) {
    seen.add(resolved.url);
    appendFileSync(file, `${resolved.url}\n`);
  }
  return resolved;
}
