/** The source files the architectural rules read: TypeScript and JavaScript under a folder, walked in order. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = /\.(?:ts|js)$/;

/** Every `.ts`/`.js` file under `dir`, as a repository path with forward slashes. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return SOURCE.test(path) ? [path.split('\\').join('/')] : [];
    });
}

/** Lines in `source` as an editor numbers them: a final newline ends the last line, it does not start one. */
export function lineCount(source: string): number {
  if (source === '') return 0;
  const lines = source.split('\n').length;
  return source.endsWith('\n') ? lines - 1 : lines;
}
