import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApiError, invalidInput } from './errors.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** The raw request body as text, at most 1 MiB. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(invalidInput('body: larger than 1 MiB'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Parsed JSON body; an empty body is `undefined` (endpoints without required fields accept it). */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw invalidInput('body: malformed JSON');
  }
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  contentType?: string;
}

export function errorResponse(error: ApiError): WireResponse {
  return {
    status: error.status,
    headers: { ...error.headers },
    body: JSON.stringify({ success: false, error: { type: error.type, message: error.message } }),
  };
}

/**
 * Media (an image, the demo clip): whole, or the byte range a player asks for (`Range: bytes=a-b`, 206), as
 * browsers read a video: a `<video>` that gets no ranges may refuse to seek, or to play at all.
 */
export function sendMedia(
  req: IncomingMessage,
  res: ServerResponse,
  media: { status: number; contentType: string; body: string | Buffer },
): void {
  const body = typeof media.body === 'string' ? Buffer.from(media.body, 'utf8') : media.body;
  const headers = {
    'Cache-Control': 'no-cache',
    'Content-Type': media.contentType,
    'Accept-Ranges': 'bytes',
  };
  const range = media.status === 200 ? byteRange(req.headers.range, body.length) : undefined;
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${body.length}`, 'Content-Length': '0' });
    res.end();
    return;
  }
  const part = range ? body.subarray(range.start, range.end + 1) : body;
  res.writeHead(range ? 206 : media.status, {
    ...headers,
    ...(range ? { 'Content-Range': `bytes ${range.start}-${range.end}/${body.length}` } : {}),
    'Content-Length': String(part.length),
  });
  res.end(req.method === 'HEAD' ? undefined : part);
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range within `size`; undefined: none asked (or several: whole). */
function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] = [match[1] as string, match[2] as string];
  const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

export function send(res: ServerResponse, response: WireResponse): void {
  const body = Buffer.from(response.body, 'utf8');
  res.writeHead(response.status, {
    ...response.headers,
    'Content-Type': response.contentType ?? 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
  });
  res.end(body);
}
