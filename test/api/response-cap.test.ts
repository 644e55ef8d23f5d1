/**
 * Response bodies are capped while they are read: a hostile or broken service streaming hundreds of
 * MB gets the call failed as `invalid_response` after 5 MB, the connection cut, and no retry. A real server on
 * 127.0.0.1, the real client.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VideoApiClient, VideoApiError } from '../../src/api/index.js';
import { MAX_RESPONSE_BYTES } from '../../src/api/transport.js';
import { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH } from '../../src/api/wire/common.js';

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((resolve) => {
      server?.closeAllConnections();
      server?.close(() => resolve());
      if (!server) resolve();
    }),
);

/** Serves GET /api/v1/me with `write(res)`; counts requests and the bytes the client accepted. */
async function serve(write: (res: import('node:http').ServerResponse) => Promise<void>) {
  const seen = { requests: 0 };
  server = createServer((_req, res) => {
    seen.requests++;
    write(res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const client = new VideoApiClient({
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    apiKey: 'fl_live_response_cap_test_key',

    backoffBaseMs: 1,
  });
  return { client, seen };
}

/** Writes `total` bytes of a JSON string value in 64 KB chunks, honouring back-pressure; false if cut off. */
async function stream(res: import('node:http').ServerResponse, total: number): Promise<boolean> {
  res.write('{"success":true,"data":{"team":{"name":"');
  const chunk = 'a'.repeat(64 * 1024);
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (res.destroyed) return false;
    if (!res.write(chunk)) await new Promise((r) => res.once('drain', r).once('close', r));
  }
  res.end('","credits":1}}}');
  return true;
}

describe('response size cap', () => {
  it('stops reading a chunked answer past 5 MB: invalid_response, one attempt, the connection cut', async () => {
    let finished: boolean | undefined;
    const { client, seen } = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      finished = await stream(res, 64 * 1024 * 1024);
    });
    const error = await client.me.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoApiError);
    expect(error).toMatchObject({ type: 'invalid_response' });
    expect((error as Error).message).toBe('GET /me: the response is larger than 5 MB; not read');
    expect(seen.requests).toBe(1);
    await expect.poll(() => finished).toBe(false);
  });

  it('refuses a declared Content-Length over the cap without reading it', async () => {
    const { client, seen } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(400 * 1024 * 1024) });
      res.write('{"success":true,');
      return Promise.resolve();
    });
    const error = await client.me.get().catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'invalid_response' });
    expect(seen.requests).toBe(1);
  });

  it('reads an answer just under the cap as usual', async () => {
    const { client } = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await stream(res, MAX_RESPONSE_BYTES - 256 * 1024);
    });
    const me = await client.me.get();
    expect(me.team.credits).toBe(1);
    // A name that large is not stored whole: names are kept to the spec's 120 characters.
    expect(me.team.name).toHaveLength(MAX_NAME_LENGTH);
    expect(me.team.name.endsWith('…')).toBe(true);
  });

  it('bounds the strings it keeps: names at 120 characters, error messages at 2,000', async () => {
    const { client } = await serve((res) => {
      const path = res.req.url ?? '';
      res.writeHead(path.includes('/videos/') ? 200 : 400, { 'content-type': 'application/json' });
      if (path.includes('/videos/')) {
        const video = { id: 'v1', name: 'n'.repeat(10_000), status: 'completed' };
        res.end(JSON.stringify({ success: true, data: video }));
      } else {
        res.end(
          JSON.stringify({ success: false, error: { type: 'invalid_input', message: 'm'.repeat(90_000) } }),
        );
      }
      return Promise.resolve();
    });
    const video = await client.videos.get('v1');
    expect(video.name).toHaveLength(MAX_NAME_LENGTH);
    const error = await client.me.get().catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'invalid_input' });
    expect((error as Error).message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH + 20);
  });
});
