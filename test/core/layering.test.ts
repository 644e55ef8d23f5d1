/**
 * The whiteboard's boundaries (DESIGN §1), checked on the source: the core never imports an adapter
 * (nor the API client, store, poller or composition root); inside the core, only commands import commands
 * (`commands/` holds commands and their registrations; their helpers live in folders named for what they are);
 * an adapter never imports another adapter; the API client, store and poller never import an adapter. Imports are resolved against the importing file, so a
 * path written any way (`../../adapters/x`, `./../adapters`) is caught.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of `file` (static, dynamic, `export … from`), as a repository path. */
function importsOf(file: string, source = readFileSync(file, 'utf8')): string[] {
  const specs = [...source.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1] as string,
  );
  return specs.map((spec) => normalize(join(dirname(file), spec)));
}

const ADAPTERS = ['playground', 'slack', 'discord'] as const;
/** index: the factory (a ChatAdapter); inbound: payload → request; render: card/form → platform; text: tokens → markup; sender: delivery. */
const SAME_FILES = ['inbound.ts', 'index.ts', 'render.ts', 'sender.ts', 'text.ts'];
const adapterOf = (path: string): string | undefined =>
  ADAPTERS.find((name) => path.startsWith(`adapters/${name}/`) || path === `adapters/${name}`);

function offenders(dirs: string[], forbidden: (from: string, to: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of dirs.flatMap(files)) {
    for (const target of importsOf(file)) if (forbidden(file, target)) found.push(`${file} → ${target}`);
  }
  return found;
}

describe('layering', () => {
  it('the core imports no adapter and nothing outside the core', () => {
    expect(
      offenders(
        ['src/core'],
        (_, to) =>
          !relative('src/core', to)
            .split('/')
            .every((p) => p !== '..'),
      ),
    ).toEqual([]);
  });

  it('commands sit on top of the core: nothing else in it imports a command (approvals use their port)', () => {
    // The adapters' entry (src/core/index.ts) sits above the commands: it hands adapters the command table.
    expect(
      offenders(
        ['src/core'],
        (from, to) =>
          !from.startsWith('src/core/commands/') &&
          from !== 'src/core/index.ts' &&
          to.startsWith('src/core/commands/'),
      ),
    ).toEqual([]);
  });

  it('adapters never import each other', () => {
    expect(
      offenders(['adapters'], (from, to) => {
        const target = adapterOf(to);
        return target !== undefined && target !== adapterOf(from);
      }),
    ).toEqual([]);
  });

  it('every adapter folder has the same files by the same names', () => {
    for (const name of ADAPTERS) {
      const present = readdirSync(`adapters/${name}`);
      expect({ name, files: SAME_FILES.filter((f) => present.includes(f)) }).toEqual({
        name,
        files: SAME_FILES,
      });
    }
  });

  it('the API client, store, poller and HTTP server import no adapter', () => {
    expect(
      offenders(['src/api', 'src/store', 'src/poller', 'src/http'], (_, to) => to.startsWith('adapters/')),
    ).toEqual([]);
  });

  it('the checks catch what they forbid', () => {
    expect(importsOf('adapters/slack/x.ts', "import { y } from '../discord/render.js';")).toEqual([
      'adapters/discord/render.js',
    ]);
    expect(adapterOf('adapters/discord/render.js')).toBe('discord');
    expect(importsOf('src/core/x.ts', "await import('../../adapters/slack/index.js')")).toEqual([
      'adapters/slack/index.js',
    ]);
  });
});
