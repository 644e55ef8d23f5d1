/**
 * Adapters reach the core through its one entry, `src/core/index.ts`: an adapter that imports
 * `src/core/live/video-card.js` (or any core file but the entry) fails here, so the core's rooms can move
 * without touching a platform. The platform table `src/adapters.ts` is the adapters' peer and keeps the same
 * rule; the composition root `src/main.ts` builds the core itself (command modules, watchers, effect
 * reconciliation) and is not held to it. Every import form counts: `import`, `import type`, `export … from`,
 * `import()` and `import('…')` types. The entry exports only what adapters use, so it stays their documented
 * surface.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRY = 'src/core/index.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const adapterFiles = (): string[] => [...files('adapters'), 'src/adapters.ts'];

interface ImportSite {
  spec: string;
  line: number;
  /** The names taken, for static imports and re-exports; undefined for a namespace or dynamic import. */
  names?: string[];
}

/** Every module specifier `source` names, with the line it is on. */
function importsOf(file: string, source: string): ImportSite[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: ImportSite[] = [];
  const lineOf = (node: ts.Node): number => sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      const names =
        bindings && ts.isNamedImports(bindings)
          ? bindings.elements.map((e) => (e.propertyName ?? e.name).text)
          : undefined;
      out.push({ spec: node.moduleSpecifier.text, line: lineOf(node), ...(names ? { names } : {}) });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push({ spec: node.moduleSpecifier.text, line: lineOf(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      out.push({ spec: node.arguments[0].text, line: lineOf(node) });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      out.push({ spec: node.argument.literal.text, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The repository path a relative specifier in `file` names; undefined for a package. */
const targetOf = (file: string, spec: string): string | undefined =>
  spec.startsWith('.') ? normalize(join(dirname(file), spec)) : undefined;

/** Each import in `source` of a core file other than the entry, as `file:line → target`. */
function pastTheEntry(file: string, source: string): string[] {
  return importsOf(file, source).flatMap(({ spec, line }) => {
    const target = targetOf(file, spec);
    const inCore = target !== undefined && (target === 'src/core' || target.startsWith('src/core/'));
    return inCore && target !== ENTRY ? [`${file}:${line} → ${target}`] : [];
  });
}

/** The names the entry exports, read from its `export … from` lists. */
function entryExports(): string[] {
  const source = readFileSync('src/core/index.ts', 'utf8');
  const sf = ts.createSourceFile('src/core/index.ts', source, ts.ScriptTarget.Latest, true);
  return sf.statements.flatMap((st) =>
    ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)
      ? st.exportClause.elements.map((e) => e.name.text)
      : [],
  );
}

describe('the core entry', () => {
  it('is the only core file an adapter imports', () => {
    const adapters = adapterFiles();
    expect(adapters.length).toBeGreaterThan(50);
    const found = adapters.flatMap((file) => pastTheEntry(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('exports nothing the adapters do not use', () => {
    const used = new Set(
      adapterFiles().flatMap((file) =>
        importsOf(file, readFileSync(file, 'utf8'))
          .filter(({ spec }) => targetOf(file, spec) === ENTRY)
          .flatMap(({ names }) => names ?? []),
      ),
    );
    const exported = entryExports();
    expect(exported.length).toBeGreaterThan(50);
    expect(exported.filter((name) => !used.has(name))).toEqual([]);
  });

  it('the check itself catches every import form past the entry and lets the entry and packages through', () => {
    const sample = [
      "import { progressBar } from '../../src/core/live/video-card.js';",
      "import type { Card } from '../../src/core/text/cards.js';",
      "export { say } from '../../src/core/text/messages.js';",
      "const m = await import('../../src/core/home/home.js');",
      "type B = import('../../src/core/dispatch/bot.js').Bot;",
      "import { errorCard } from '../../src/core/index.js';",
      "import type { Clock } from '../../src/core/index.js';",
      "import { App } from '@slack/bolt';",
      "import { render } from './render.js';",
      "import * as core from '../../src/core';",
    ].join('\n');
    expect(pastTheEntry('adapters/slack/sample.ts', sample)).toEqual([
      'adapters/slack/sample.ts:1 → src/core/live/video-card.js',
      'adapters/slack/sample.ts:2 → src/core/text/cards.js',
      'adapters/slack/sample.ts:3 → src/core/text/messages.js',
      'adapters/slack/sample.ts:4 → src/core/home/home.js',
      'adapters/slack/sample.ts:5 → src/core/dispatch/bot.js',
      'adapters/slack/sample.ts:10 → src/core',
    ]);
  });
});
