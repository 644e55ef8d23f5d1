/**
 * The core's boundary (DESIGN §1), as an allow-list: the core imports its own files, and from
 * outside only the packages listed below, each with the reason it may. Any other package or builtin (an SDK,
 * `pg`, `ws`, `node:fs`, …) fails until it goes behind a port or earns a line here. Imports are read on the
 * AST (static, `export … from`, `import type`, `import()`, `require()`, `import('x').T` types), so a string
 * that merely looks like an import is not one, and every written form of an import is.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../architecture/source-files.js';

/** What the core may import from outside itself. */
const ALLOWED: { spec: string; why: string }[] = [
  { spec: 'node:crypto', why: 'request ids, reference ids and content hashes: pure computation, no I/O' },
  { spec: 'date-fns-tz', why: 'time-zone conversion and formatting: pure functions over dates' },
  { spec: 'chrono-node', why: 'natural-language times ("tomorrow 9am"): a pure parser' },
];

/** Every module specifier `source` imports, with its line. */
function importsOf(file: string, source: string): { spec: string; line: number }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: { spec: string; line: number }[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) {
      out.push({ spec: node.text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      add(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const isRelative = (spec: string) => spec.startsWith('./') || spec.startsWith('../');

type Imports = { file: string; imports: { spec: string; line: number }[] };

/** `file:line: spec` for each package or builtin imported that is not on the allow-list. */
function unlistedImports({ file, imports }: Imports): string[] {
  return imports
    .filter(({ spec }) => !isRelative(spec) && !ALLOWED.some((a) => a.spec === spec))
    .map(({ spec, line }) => `${file}:${line}: ${spec}`);
}

/** `file: spec` for each relative import that leaves src/core. */
function importsLeavingCore({ file, imports }: Imports): string[] {
  return imports
    .filter(({ spec }) => isRelative(spec))
    .filter(({ spec }) => relative('src/core', normalize(join(dirname(file), spec))).startsWith('..'))
    .map(({ spec }) => `${file}: ${spec}`);
}

describe('core boundary', () => {
  const coreFiles = sourceFiles('src/core');
  const core: Imports[] = coreFiles.map((file) => ({
    file,
    imports: importsOf(file, readFileSync(file, 'utf8')),
  }));

  it('has files to check', () => {
    expect(coreFiles.length).toBeGreaterThan(10);
  });

  it('imports from outside only what the allow-list names (ports for everything else)', () => {
    const found = core.flatMap(unlistedImports);
    expect(found, `put these behind a port, or list them with a reason:\n${found.join('\n')}`).toEqual([]);
  });

  it('lists only packages the core still imports', () => {
    const used = new Set(core.flatMap(({ imports }) => imports.map((i) => i.spec)));
    expect(ALLOWED.filter((a) => !used.has(a.spec)).map((a) => a.spec)).toEqual([]);
  });

  it('imports nothing outside src/core through a relative path', () => {
    expect(core.flatMap(importsLeavingCore)).toEqual([]);
  });

  it('the checks themselves catch every form of import and ignore look-alike strings', () => {
    const sample = [
      "import { randomUUID } from 'node:crypto';",
      "import pg from 'pg';",
      "import type { WebSocket } from 'ws';",
      "export { App } from '@slack/bolt';",
      "const d = await import('discord.js');",
      "const u = require('undici');",
      "type L = import('pino').Logger;",
      "import fs = require('node:fs');",
      'const hint = \'audit --from "last week"\';',
      "import { text } from '../text.js';",
      "import { store } from '../../store/index.js';",
    ].join('\n');
    const parsed = { file: 'src/core/x/y.ts', imports: importsOf('src/core/x/y.ts', sample) };
    expect(unlistedImports(parsed)).toEqual([
      'src/core/x/y.ts:2: pg',
      'src/core/x/y.ts:3: ws',
      'src/core/x/y.ts:4: @slack/bolt',
      'src/core/x/y.ts:5: discord.js',
      'src/core/x/y.ts:6: undici',
      'src/core/x/y.ts:7: pino',
      'src/core/x/y.ts:8: node:fs',
    ]);
    expect(importsLeavingCore(parsed)).toEqual(['src/core/x/y.ts: ../../store/index.js']);
  });
});
