/**
 * No function whose source spans more than 80 lines in src/ and adapters/, measured on the AST with
 * the TypeScript compiler: every function declaration, method, accessor, constructor, arrow and function
 * expression, from its first token to its last, blank lines and comments included (Biome's
 * `noExcessiveLinesPerFunction` skips blank lines, so a function can pass it and still fill two screens).
 * Today's longer functions are listed below with the reason each is still long; the list only shrinks: an
 * entry that no longer exceeds the limit (or no longer exists) fails until it is removed.
 */
import { existsSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';

const LIMIT = 80;
const ROOTS = ['src', 'adapters'];

/**
 * Functions over the limit, by file and name, each with the line to cut it along. None today: a new entry needs
 * a reason a reviewer accepts.
 */
const ALLOWED: { path: string; name: string; why: string }[] = [];

type Measured = { name: string; line: number; lines: number };

const nameText = (name: ts.Node | undefined): string | undefined =>
  name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name))
    ? name.text
    : undefined;

/** The object or class a member function belongs to, by the name it is known by. */
function holderName(holder: ts.Node): string | undefined {
  if (ts.isClassLike(holder)) return nameText(holder.name);
  if (ts.isObjectLiteralExpression(holder) && ts.isVariableDeclaration(holder.parent)) {
    return nameText(holder.parent.name);
  }
  return undefined;
}

/** How a reader finds the function: its own name, the name it is assigned to, or the call it is passed to. */
function nameOf(fn: ts.SignatureDeclaration): string {
  const parent = fn.parent;
  if (ts.isConstructorDeclaration(fn)) return `${holderName(parent) ?? '<class>'}.constructor`;
  const own =
    nameText(fn.name) ??
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)
      ? nameText(parent.name)
      : undefined);
  if (own === undefined) {
    return ts.isCallExpression(parent) ? `${parent.expression.getText()}(…) callback` : '<anonymous>';
  }
  const member = ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) ? parent.parent : parent;
  const holder =
    ts.isVariableDeclaration(parent) || ts.isFunctionDeclaration(fn) ? undefined : holderName(member);
  return holder ? `${holder}.${own}` : own;
}

/** Every function with a body in `source`, with the number of source lines it spans. */
function functionSizes(file: string, source: string): Measured[] {
  const kind = file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const out: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ name: nameOf(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const tooLong = (file: string, source: string): Measured[] =>
  functionSizes(file, source).filter((f) => f.lines > LIMIT);

const isListed = (path: string, name: string) => ALLOWED.some((a) => a.path === path && a.name === name);

describe('function size', () => {
  const files = ROOTS.flatMap(sourceFiles);

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it(`finds no function spanning more than ${LIMIT} lines outside the allow-list`, () => {
    const found = files.flatMap((file) =>
      tooLong(file, readFileSync(file, 'utf8'))
        .filter((f) => !isListed(file, f.name))
        .map((f) => `${file}:${f.line}: ${f.name} spans ${f.lines} lines`),
    );
    expect(found, `cut these into named steps:\n${found.join('\n')}`).toEqual([]);
  });

  it('lists only functions still over the limit, each once and with a reason', () => {
    const stale = ALLOWED.flatMap(({ path, name }) => {
      const long = existsSync(path) ? tooLong(path, readFileSync(path, 'utf8')) : [];
      return long.some((f) => f.name === name) ? [] : [`${path}: ${name} is no longer over ${LIMIT} lines`];
    });
    expect(stale, 'remove these entries from the list').toEqual([]);
    expect(new Set(ALLOWED.map((a) => `${a.path} ${a.name}`)).size).toBe(ALLOWED.length);
    expect(ALLOWED.filter((a) => a.why.trim().length < 10)).toEqual([]);
  });

  it('the measure itself finds every kind of function and counts its source lines', () => {
    const body = (n: number) => '  x();\n'.repeat(n);
    const sample = [
      `function declared() {\n${body(LIMIT - 1)}}`, // LIMIT + 1 lines
      `function fits() {\n${body(LIMIT - 2)}}`, // exactly LIMIT
      `const arrow = async () => {\n  // a comment counts\n\n${body(LIMIT)}};`,
      `class Watcher {\n  constructor() {\n${body(LIMIT)}  }\n  check() {\n${body(LIMIT)}  }\n}`,
      `export const watcher = {\n  async check() {\n${body(LIMIT)}  },\n  run: function () {\n${body(LIMIT)}  },\n};`,
      `describe('x', () => {\n${body(LIMIT)}});`,
      `const f = function named() {\n${body(LIMIT)}};`,
    ].join('\n');
    expect(tooLong('sample.ts', sample).map((f) => `${f.name} ${f.lines}`)).toEqual([
      `declared ${LIMIT + 1}`,
      `arrow ${LIMIT + 4}`,
      `Watcher.constructor ${LIMIT + 2}`,
      `Watcher.check ${LIMIT + 2}`,
      `watcher.check ${LIMIT + 2}`,
      `watcher.run ${LIMIT + 2}`,
      `describe(…) callback ${LIMIT + 2}`,
      `named ${LIMIT + 2}`,
    ]);
    expect(functionSizes('sample.js', `function js() {\n${body(LIMIT)}}`)).toEqual([
      { name: 'js', line: 1, lines: LIMIT + 2 },
    ]);
  });
});
