/**
 * The core names no chat platform: what differs between Slack, Discord and the playground arrives with each
 * request (`ChatCapabilities`: a workspace's and a group's name, DMs outside workspaces) or as data inside the
 * references adapters build (`groupReference`), never as a branch on the platform's name. Read on the AST:
 * every string, template and regular-expression literal under src/core (comments are not code). The files
 * below may name them, each for its reason; the list only shrinks (an entry that names none fails).
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';

const PLATFORM_NAME = /slack|discord|playground/i;

/** Files of the core that may name a platform. */
const ALLOWED: { path: string; why: string }[] = [
  { path: 'src/core/ports/chat.ts', why: 'declares `ChatPlatform`, the platforms reelbot speaks' },
  { path: 'src/core/ports/address.ts', why: 'lists them once, to read the addresses adapters encode' },
  {
    path: 'src/core/commands/account/home.ts',
    why: "help wording comparing the `home` command with Slack's App Home tab",
  },
];

/** `file:line: text` of each literal in `source` naming a platform. */
function platformNames(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteralLike(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node) ||
        ts.isRegularExpressionLiteral(node)) &&
      PLATFORM_NAME.test(node.text)
    ) {
      const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${file}:${line}: ${JSON.stringify(node.text)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('platform names in the core', () => {
  const files = sourceFiles('src/core').filter((f) => f.endsWith('.ts'));
  const named = new Map(files.map((file) => [file, platformNames(file, readFileSync(file, 'utf8'))]));

  it('appear only in the allowed files (capabilities and references carry what differs)', () => {
    expect(files.length).toBeGreaterThan(100);
    const allowed = new Set(ALLOWED.map((a) => a.path));
    expect([...named].filter(([file]) => !allowed.has(file)).flatMap(([, found]) => found)).toEqual([]);
  });

  it('the allow-list only shrinks: each entry still names a platform', () => {
    expect(ALLOWED.filter((a) => (named.get(a.path) ?? []).length === 0).map((a) => a.path)).toEqual([]);
  });

  it('the check itself finds names in strings, templates, types and regexes, and ignores comments', () => {
    const sample = [
      "// on 'discord' (a comment)",
      "if (platform === 'discord') return 'server';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source to scan
      'const a = `slack-group:${id}`;',
      "type P = 'playground' | 'web';",
      'const b = /^(slack-group|discord-role):/;',
      "const c = 'Slack';",
      "const d = 'workspace';",
    ].join('\n');
    expect(platformNames('sample.ts', sample).map((s) => s.split(':')[1])).toEqual(['2', '3', '4', '5', '6']);
  });
});
