/**
 * Inbound chat bodies are bounded before any framework sees them: Bolt's receiver reads a body
 * with no limit before it checks the signature, so one unsigned 400 MB POST would sit in memory. The body is
 * read by the shared server for chat routes, counted, and handed on as `rawBody` (which Bolt uses instead of
 * reading the stream again).
 */
import type { IncomingMessage } from 'node:http';

/** Slack's and Discord's payloads are a few KB; a modal with long inputs stays well under this. */
export const MAX_CHAT_BODY_BYTES = 1024 * 1024;

/** The body (already read by the server when it is there as `rawBody`), or undefined past `max` bytes. */
export async function readBounded(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const read = (req as IncomingMessage & { rawBody?: unknown }).rawBody;
  if (Buffer.isBuffer(read)) return read.length > max ? undefined : read;
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
