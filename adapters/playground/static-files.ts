/**
 * The page's script modules and stylesheet, read once from `./static/` and served by name from a fixed list
 * (no path from the request ever touches the file system).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

const SCRIPT = 'text/javascript; charset=utf-8';
/** The page's entry script and the modules it imports (all flat in `./static/`), and its stylesheet. */
const TYPES: Record<string, string> = {
  'playground.js': SCRIPT,
  'page.js': SCRIPT,
  'message-list.js': SCRIPT,
  'server.js': SCRIPT,
  'composer.js': SCRIPT,
  'cards.js': SCRIPT,
  'form-dialog.js': SCRIPT,
  'form-submit.js': SCRIPT,
  'channels.js': SCRIPT,
  'playground.css': 'text/css; charset=utf-8',
};

export interface StaticFiles {
  serve(name: string, req: IncomingMessage, res: ServerResponse): void;
}

export function loadStaticFiles(dir = new URL('./static/', import.meta.url)): StaticFiles {
  const files = new Map(
    Object.entries(TYPES).map(([name, type]) => {
      const body = readFileSync(new URL(name, dir));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
      return [name, { body, type, etag }] as const;
    }),
  );
  return {
    serve(name, req, res) {
      const file = files.get(name);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('not found');
        return;
      }
      // Revalidated on every load (cheap 304s), so an edited file shows up without a hard refresh.
      const headers = {
        'content-type': file.type,
        'cache-control': 'no-cache',
        etag: file.etag,
        'x-content-type-options': 'nosniff',
      };
      if (req.headers['if-none-match'] === file.etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : file.body);
    },
  };
}
