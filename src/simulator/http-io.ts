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

export function send(res: ServerResponse, response: WireResponse): void {
  const body = Buffer.from(response.body, 'utf8');
  res.writeHead(response.status, {
    ...response.headers,
    'Content-Type': response.contentType ?? 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
  });
  res.end(body);
}
