/**
 * A file far larger than any text the bot reads, served by a fake platform's file host in 64 KiB chunks with
 * backpressure (the way a real host streams it), so a test can tell how much of it the client actually took:
 * `sent` counts the bytes the socket accepted until the client went away.
 */
import type { ServerResponse } from 'node:http';

export interface LargeBody {
  /** Bytes of the whole file. */
  readonly size: number;
  /** Whether the response declares its length (Content-Length) or streams chunked. */
  readonly declareLength: boolean;
  /** Bytes written so far. */
  sent: number;
}

export const largeBody = (size: number, declareLength: boolean): LargeBody => ({
  size,
  declareLength,
  sent: 0,
});

const CHUNK = Buffer.alloc(64 * 1024, 'a');

/** Streams `body` to `res` until it is all sent or the client closes the connection. */
export function serveLargeBody(body: LargeBody, res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    ...(body.declareLength ? { 'content-length': String(body.size) } : {}),
  });
  const more = (): void => {
    while (body.sent < body.size && !res.destroyed) {
      const piece = CHUNK.subarray(0, Math.min(CHUNK.length, body.size - body.sent));
      body.sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', more);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  more();
}
