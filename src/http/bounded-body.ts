/**
 * Inbound chat bodies are bounded before any framework sees them (issue 14): Bolt's receiver reads a body
 * with no limit before it checks the signature, so one unsigned 400 MB POST would sit in memory. The body is
 * read here, counted, and handed on as `rawBody` (which Bolt uses instead of reading the stream again).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler } from './server.js';

/** Slack's and Discord's payloads are a few KB; a modal with long inputs stays well under this. */
export const MAX_CHAT_BODY_BYTES = 1024 * 1024;

/** The body, or undefined once it passes `max` bytes (declared or counted). */
export async function readBounded(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  if (declared > max) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** `handler` with the request's body read first, bounded: 413 (and the connection closed) beyond `max`. */
export function withBoundedBody(handler: Handler, max = MAX_CHAT_BODY_BYTES): Handler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBounded(req, max);
    if (body === undefined) {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' });
      res.end(`request body larger than ${max} bytes`);
      req.destroy();
      return;
    }
    Object.assign(req, { rawBody: body });
    await handler(req, res);
  };
}
