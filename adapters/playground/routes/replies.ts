import type { ServerResponse } from 'node:http';

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.writeHead(405, { 'content-type': 'application/json; charset=utf-8', allow });
  res.end(JSON.stringify({ ok: false, error: `Use ${allow}.` }));
}
