/**
 * Inbound bodies are bounded before Bolt reads them: Bolt buffers a whole body before it checks
 * the signature, so an unsigned 400 MB POST would sit in memory. Through the real Bolt app on the shared
 * server: 413 past 1 MiB, counted for a chunked body, refused at once for a declared size; signed requests
 * under the cap are served as before.
 */
import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { MAX_CHAT_BODY_BYTES } from '../../src/http/bounded-body.js';
import { type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
afterEach(() => w.close());

/** POSTs `chunks` of `size` bytes each, chunked (no Content-Length) unless `declared` is given. */
function post(
  url: string,
  o: { chunks: number; size: number; declared?: number },
): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (o.declared !== undefined) headers['content-length'] = String(o.declared);
    const req = request(url, { method: 'POST', headers });
    let sent = 0;
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, sent });
    });
    req.on('error', (error) => (sent > 0 ? resolve({ status: 0, sent }) : reject(error)));
    const chunk = Buffer.alloc(o.size, 0x61);
    const pump = () => {
      while (sent < o.chunks * o.size) {
        sent += chunk.length;
        if (!req.write(chunk)) return req.once('drain', pump);
      }
      if (o.declared === undefined) req.end();
    };
    pump();
  });
}

it('answers 413 once a chunked body passes 1 MiB, before reading the rest', async () => {
  w = await slackWorld();
  const total = 64 * 1024 * 1024;
  const { status, sent } = await post(w.eventsUrl, { chunks: total / (64 * 1024), size: 64 * 1024 });
  expect(status).toBe(413);
  expect(sent).toBeLessThan(total);
  expect(MAX_CHAT_BODY_BYTES).toBe(1024 * 1024);
});

it('answers 413 at once for a declared Content-Length over the cap', async () => {
  w = await slackWorld();
  const { status } = await post(w.eventsUrl, { chunks: 1, size: 16, declared: 400 * 1024 * 1024 });
  expect(status).toBe(413);
});

it('still checks signatures of bodies under the cap, and serves signed ones', async () => {
  w = await slackWorld();
  const forged = await w.send('{"type":"event_callback"}', 'application/json', { secret: 'wrong' });
  expect(forged.status).toBe(401);
  const own = await w.command('help');
  expect(own.status).toBe(200);
});
