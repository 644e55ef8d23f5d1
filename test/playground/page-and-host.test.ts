/** The playground's page and static files, served only to requests addressed to this machine. */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { eachOnAFreshPlayground, pg } from './running-playground.js';

eachOnAFreshPlayground();

describe('page and static files', () => {
  it('serves the page with the composer, channels and the act-as switch', async () => {
    const res = await fetch(`${pg.url}/?user=bob&channel=launches`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('data-testid="composer-input"');
    expect(html).toContain('<body data-user="bob" data-channel="launches">');
    expect(html).toContain('<option value="bob" selected>Bob</option>');
    expect(html).toMatch(/data-channel="general" data-testid="channel-link"/);
    expect(html).toContain('<option value="/reel create ">Create a video</option>');
  });

  it('falls back to the first user and channel for unknown ones', async () => {
    const page = await fetch(`${pg.url}/?user=mallory&channel=nope`);
    const html = await page.text();
    expect(html).toContain('<body data-user="alice" data-channel="general">');
  });

  it('serves the script and stylesheet with revalidation, and nothing else', async () => {
    const js = await fetch(`${pg.url}/playground/static/playground.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const etag = js.headers.get('etag')!;
    const entry = await js.text();
    // The entry imports the page's modules, each served from the same fixed list.
    const modules = [...entry.matchAll(/(?:from|import) '\.\/([\w-]+\.js)'/g)].map((m) => m[1]);
    expect(modules).toContain('page.js');
    for (const name of modules) {
      const module = await fetch(`${pg.url}/playground/static/${name}`);
      expect([name, module.status, module.headers.get('content-type')]).toEqual([
        name,
        200,
        'text/javascript; charset=utf-8',
      ]);
    }
    const again = await fetch(`${pg.url}/playground/static/playground.js`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const css = await fetch(`${pg.url}/playground/static/playground.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${pg.url}/playground/static/../index.ts`)).status).toBe(404);
    expect((await fetch(`${pg.url}/playground/static/%2e%2e%2findex.ts`)).status).toBe(404);
  });
});

describe('only on this machine', () => {
  const getWithHost = (host: string, path: string) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(`${pg.url}${path}`);
      const req = request({ hostname: url.hostname, port: url.port, path, headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

  it('refuses a request addressed to another host name (DNS rebinding), on the page and the API', async () => {
    expect(await getWithHost('evil.example', '/')).toBe(403);
    expect(await getWithHost('evil.example:80', '/playground/messages?user=alice&channel=general')).toBe(403);
    expect(await getWithHost(`localhost:${new URL(pg.url).port}`, '/')).toBe(200);
    expect(await getWithHost(`127.0.0.1:${new URL(pg.url).port}`, '/')).toBe(200);
  });
});
