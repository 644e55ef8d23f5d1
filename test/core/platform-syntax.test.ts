/**
 * The core writes no platform syntax: commands are named with `command()` tokens and mentions with
 * `mention()`, which each adapter renders its own way. This reads every string and template literal under
 * src/core (comments are not text the core sends) and fails on Slack or Discord mention syntax or a typed
 * `/reel ` command. Regular expressions count too: the core reads no platform syntax either (adapters find
 * mentions in what a member typed and hand them over as `RequestInfo.mentions`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const PLATFORM_SYNTAX = ['<@', '<#', '<!', '/reel '];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every piece of string text in `source`: string literals and the literal parts of templates. */
function stringsOf(file: string, source: string): { text: string; line: number }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      out.push({ text: node.text, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const offending = (file: string, source: string): string[] =>
  stringsOf(file, source)
    .filter((s) => PLATFORM_SYNTAX.some((p) => s.text.includes(p)))
    .map((s) => `${file}:${s.line}: ${JSON.stringify(s.text)}`);

describe('core text', () => {
  it('holds no platform syntax in any string (commands and mentions are tokens)', () => {
    const coreFiles = files('src/core');
    expect(coreFiles.length).toBeGreaterThan(10);
    const found = coreFiles.flatMap((file) => offending(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check itself catches each kind, in strings and templates, and ignores comments', () => {
    const sample = [
      '// run `/reel status` (a comment)',
      "const a = 'Run `/reel link`';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source to scan
      'const b = `Ask <@${id}>`;',
      'const c = "<#C1>";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source to scan
      'const d = `x ${y} <!channel>`;',
      'const e = /^<@([UW][A-Z0-9]+)>$/;',
    ].join('\n');
    expect(offending('sample.ts', sample).map((s) => s.split(':')[1])).toEqual(['2', '3', '4', '5', '6']);
  });
});
