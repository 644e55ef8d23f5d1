/**
 * `/healthz` and `/metrics`: on loopback they answer only requests addressed to a loopback name
 * (DNS rebinding); bound beyond loopback, `/metrics` needs the METRICS_TOKEN bearer and `/healthz` stays open
 * for load balancers; a set METRICS_TOKEN is required on loopback too (a local proxy may rewrite Host).
 * A real server on 127.0.0.1, requests with chosen Host headers.
 */
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer, type HttpServerOptions } from '../../src/http/server.js';
import { createLogger } from '../../src/observability/logger.js';
import { settle, TestClock } from '../support/test-clock.js';

const quiet = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
let server: HttpServer | undefined;
afterEach(() => server?.close());

async function serve(o: Partial<HttpServerOptions> = {}): Promise<number> {
  server = createHttpServer({
    logger: quiet,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: 'reelbot_up 1\n' }),
    ...o,
  });
  return (await server.listen(0, '127.0.0.1')).port;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('on loopback', () => {
  it.each(['/healthz', '/metrics'])('%s answers loopback names only', async (path) => {
    const port = await serve();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await get(port, path, { host })).status, host).toBe(200);
    }
    const rebound = await get(port, path, { host: `evil.example:${port}` });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('reelbot_up');
  });

  it('/metrics needs the METRICS_TOKEN bearer when one is set, even addressed to a loopback name', async () => {
    // A local reverse proxy that rewrites Host to 127.0.0.1 would otherwise hand /metrics to anyone it serves.
    const port = await serve({ metricsToken: 'metrics-secret-token' });
    const host = `127.0.0.1:${port}`;
    const bare = await get(port, '/metrics', { host });
    expect(bare.status).toBe(401);
    expect(bare.body).not.toContain('reelbot_up');
    expect((await get(port, '/metrics', { host, authorization: 'Bearer wrong' })).status).toBe(401);
    const ok = await get(port, '/metrics', { host, authorization: 'Bearer metrics-secret-token' });
    expect(ok).toEqual({ status: 200, body: 'reelbot_up 1\n' });
    expect((await get(port, '/healthz', { host })).status).toBe(200);
    expect(
      (
        await get(port, '/metrics', {
          host: `evil.example:${port}`,
          authorization: 'Bearer metrics-secret-token',
        })
      ).status,
    ).toBe(421);
  });
});

describe('beyond loopback', () => {
  it('serves /metrics only with the METRICS_TOKEN bearer; /healthz stays open', async () => {
    const port = await serve({ host: '0.0.0.0', metricsToken: 'metrics-secret-token' });
    const host = 'reelbot.internal:3000';
    expect((await get(port, '/healthz', { host })).status).toBe(200);
    expect((await get(port, '/metrics', { host })).status).toBe(401);
    expect((await get(port, '/metrics', { host, authorization: 'Bearer wrong' })).status).toBe(401);
    const ok = await get(port, '/metrics', { host, authorization: 'Bearer metrics-secret-token' });
    expect(ok).toEqual({ status: 200, body: 'reelbot_up 1\n' });
  });

  it('refuses /metrics when no METRICS_TOKEN is set', async () => {
    const port = await serve({ host: '0.0.0.0' });
    const refused = await get(port, '/metrics', { host: 'reelbot.internal' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('METRICS_TOKEN');
  });
});

describe('chat routes', () => {
  it('count a request in the acknowledgement gate only once its body is whole; a trickling client holds up nobody', async () => {
    const port = await serve();
    const seen: { body: string; pending: number }[] = [];
    server?.mount(
      '/chat',
      (req, res) => {
        const body = String((req as typeof req & { rawBody?: Buffer }).rawBody);
        seen.push({ body, pending: server?.acks.pending ?? -1 });
        res.end('ok');
      },
      { interactive: true },
    );
    const slowArrived = new Promise((resolve) => server?.server.once('request', resolve));
    // A client that sent headers and one byte of a 100-byte body, then went quiet.
    const slow = request({
      host: '127.0.0.1',
      port,
      path: '/chat',
      method: 'POST',
      headers: { 'content-length': '100' },
    });
    slow.on('error', () => {});
    slow.write('x');
    await slowArrived;
    expect(server?.acks.pending).toBe(0);
    // A whole request goes through at once, its body handed on.
    const whole = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/chat', method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{"type":1}');
    });
    expect(whole).toBe(200);
    // While it was handled, only it was pending: the trickling one never counted.
    expect(seen).toEqual([{ body: '{"type":1}', pending: 1 }]);
    expect(server?.acks.pending).toBe(0);
    slow.destroy();
  });

  it("hold a request's work until the burst around it is acknowledged, even when they arrive one by one", async () => {
    const clock = new TestClock();
    const port = await serve({ clock });
    const events: string[] = [];
    server?.mount(
      '/chat',
      async (req, res) => {
        const body = String((req as typeof req & { rawBody?: Buffer }).rawBody);
        res.end('ok');
        await server?.acks.clear();
        events.push(`work ${body}`);
      },
      { interactive: true },
    );
    const post = (body: string) =>
      new Promise<void>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/chat', method: 'POST' }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        });
        req.on('error', reject);
        req.end(body);
      });
    // The first request is acknowledged before the second arrives: its work still waits.
    await post('a');
    await settle();
    expect(events).toEqual([]);
    await post('b');
    await settle();
    expect(events).toEqual([]);
    // Quiet for the server's quiet period (20 ms): both go on, in order.
    await clock.pass(20);
    expect(events).toEqual(['work a', 'work b']);
  });

  it('cut off a client that never finishes its request (10 s)', () => {
    const s = createHttpServer({
      logger: quiet,
      health: () => true,
      metrics: async () => ({ contentType: 'text/plain', body: '' }),
    });
    expect(s.server.requestTimeout).toBe(10_000);
    expect(s.server.headersTimeout).toBe(10_000);
  });
});
