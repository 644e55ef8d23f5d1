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
export function readBounded(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const read = (req as IncomingMessage & { rawBody?: unknown }).rawBody;
  if (Buffer.isBuffer(read)) return Promise.resolve(read.length > max ? undefined : read);
  const declared = Number(req.headers['content-length']);
  if (declared > max) return Promise.resolve(undefined);
  // Stream events rather than `for await`: an async iterator per request costs more than the small body it reads.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    // The client went away mid-body (after 'end' this settles nothing).
    req.once('close', () => reject(new Error('request closed before its body was whole')));
  });
}
