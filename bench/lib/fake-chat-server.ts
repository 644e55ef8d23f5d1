/**
 * A chat platform for benchmarks whose senders live in several processes: an HTTP server on 127.0.0.1 that
 * answers posts and edits at once and counts them where they land. Each post carries its outbox row's
 * dedupe id (as Slack's metadata and Discord's nonce do), so a row posted twice — by two replicas, or again
 * after a lapsed claim — is seen here whoever sent it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatServer {
  url: string;
  /** Posts received, by dedupe id. */
  posts: Map<string, number>;
  edits: number;
  /** Dedupe ids posted more than once. */
  doubles(): string[];
  /**
   * Forgets what was posted: dedupe ids are `outbox:<row id>`, numbered per database, so each run on a fresh
   * database starts its count afresh.
   */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeChatServer(): Promise<FakeChatServer> {
  const posts = new Map<string, number>();
  let edits = 0;
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { conversation?: string; dedupeId?: string };
      if (req.url === '/post') {
        const id = String(parsed.dedupeId);
        posts.set(id, (posts.get(id) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ts: `${parsed.conversation}:${++n}.000` }));
      } else if (req.url === '/update') {
        edits++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    get edits() {
      return edits;
    },
    doubles: () => [...posts].filter(([, count]) => count > 1).map(([id]) => id),
    reset: () => {
      posts.clear();
      edits = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
