/**
 * Adapters mint no failure references: an unexpected failure is answered with the core's `failureReply`, which
 * logs the failure once and puts the same reference in the member's card. An adapter writing the
 * "something went wrong (ref …)" message itself would mint its own id, outside the dispatcher's metrics and
 * wording. Read on the AST: a call of `say` with one of the reference-carrying codes.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';

/** The message codes whose text quotes a reference to a logged failure (src/core/text/messages.ts). */
const REFERENCE_CODES = new Set(['internal', 'internal-after-write', 'database-busy']);

/** `file:line` of each `say('<reference code>', …)` in `source`. */
function mintedReferences(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'say') {
      const [code] = node.arguments;
      if (code && ts.isStringLiteralLike(code) && REFERENCE_CODES.has(code.text))
        found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('failure references', () => {
  it('are minted by the core alone: no adapter writes a reference-carrying message', () => {
    const files = sourceFiles('adapters').filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => mintedReferences(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the check itself finds each code in a call of `say`, and nothing else', () => {
    const sample = [
      "const a = errorCard(say('internal', { ref }));",
      "const b = say('internal-after-write', { ref: id });",
      'const c = say(`database-busy`, { ref });',
      "const d = say('interaction-expired');",
      "const e = 'internal';",
      "// say('internal', { ref })",
    ].join('\n');
    expect(mintedReferences('sample.ts', sample)).toEqual(['sample.ts:1', 'sample.ts:2', 'sample.ts:3']);
  });
});
