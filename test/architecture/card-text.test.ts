/**
 * Card text is `CardText` (src/core/text/text.ts): only the text helpers make it, so a value the core does not
 * control cannot reach a card without `literal`/`code`/`link`. This runs the TypeScript compiler over a small
 * file importing the real text.ts and cards.ts: each case says whether it must compile, so the check is shown
 * to accept the helpers as well as to refuse a bare concatenation (a check that refused everything would fail
 * here too). The real tree compiling is the project typecheck's job.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The virtual file sits in this folder, so its imports are the real modules'. */
const PROBE = join(ROOT, 'test/architecture/card-text-probe.ts');

const HEADER = `
import type { Card, Field, Form, Response } from '../../src/core/text/cards.js';
import { code, joinText, link, literal, md } from '../../src/core/text/text.js';
declare const userValue: string;
declare const count: number;
export {};
`;

function compilerOptions(): ts.CompilerOptions {
  const read = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT);
  return { ...parsed.options, noEmit: true, types: [] };
}

/** The compiler's errors for `body` placed after HEADER, as `TSnnnn message` lines. */
function errorsOf(body: string): string[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const source = HEADER + body;
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    resolve(name) === PROBE
      ? ts.createSourceFile(name, source, language, true)
      : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === PROBE || fileExists(name);
  const program = ts.createProgram([PROBE], options, host);
  const probe = program.getSourceFile(PROBE);
  return ts
    .getPreEmitDiagnostics(program, probe)
    .map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

const REFUSED: Record<string, string> = {
  'a user value concatenated into a title': `const c: Card = { title: 'Video ' + userValue };`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the compiler, not a template
  'a user value in a template literal': 'const c: Card = { title: md`x`, text: `Made by ${userValue}` };',
  'a plain string as a field value': `const f: Field = { label: md\`Name\`, value: userValue };`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the compiler, not a template
  'a user value in a hole of md': 'const c: Card = { title: md`Video ${userValue}` };',
  'a joined list of raw strings': `const c: Card = { title: md\`x\`, text: joinText([userValue], ', ') };`,
  'a raw string as a form intro': `const f: Form = { id: 'f', title: 'F', submitLabel: 'Go', state: '', inputs: [], intro: userValue };`,
  'a raw string as an inline form error': `const r: Response = { kind: 'form-errors', errors: { name: userValue } };`,
};

const ACCEPTED: Record<string, string> = {
  'md with escaped values and numbers':
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the compiler, not a template
    'const c: Card = { title: md`Video ${literal(userValue)}`, text: md`${count} credits, id ${code(userValue)}` };',
  'a link and a joined list of card text': `const c: Card = { title: md\`x\`, text: joinText([link(userValue, 'https://a.example'), literal(userValue)], ', ') };`,
  'plain labels stay strings': `const r: Response = { kind: 'message', visibility: 'ephemeral', card: { title: md\`x\`, controls: [{ kind: 'button', action: 'a', value: userValue, label: userValue }] } };`,
};

describe('card text only comes from the text helpers', () => {
  for (const [name, body] of Object.entries(REFUSED)) {
    it(`refuses ${name}`, () => {
      expect(errorsOf(body).join('\n')).toMatch(/^TS2322 |^TS2345 /m);
    });
  }

  for (const [name, body] of Object.entries(ACCEPTED)) {
    it(`accepts ${name}`, () => {
      expect(errorsOf(body)).toEqual([]);
    });
  }
});
