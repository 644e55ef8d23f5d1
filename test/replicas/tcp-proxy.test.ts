/**
 * The TCP proxy the replica chaos tests and the bench put in front of PostgreSQL (test/support/tcp-proxy.ts):
 * a delay each way, connections counted per client, and a partition that silences one client's connections
 * without closing them, then heals.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

// real-time-ok: a real TCP proxy and a real server
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('TCP proxy in front of PostgreSQL', () => {
  let server: TestPostgres;
  let proxy: TcpProxy;
  const clients: pg.Client[] = [];
  const connectVia = async (client: string) => {
    const c = new pg.Client({ connectionString: await proxy.urlFor(client, server.url) });
    c.on('error', () => {});
    clients.push(c);
    await c.connect();
    return c;
  };
  /** Backends of the server other than this test's own `direct` session. */
  const backends = async () =>
    Number(
      (
        await direct.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
        )
      ).rows[0]?.n,
    );
  let direct: pg.Client;

  beforeAll(async () => {
    server = await startPostgres();
    proxy = await startTcpProxy({ target: { host: '127.0.0.1', port: server.port } });
    direct = new pg.Client({ connectionString: server.url });
    await direct.connect();
  });
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {});
    await direct?.end();
    await proxy?.close();
    await server?.stop();
  });

  it('adds its delay each way and counts each client its own connections', async () => {
    proxy.setDelay(0);
    const a = await connectVia('delay-a');
    await a.query('SELECT 1');
    const fast = performance.now();
    for (let i = 0; i < 5; i++) await a.query('SELECT 1');
    const undelayed = (performance.now() - fast) / 5;

    proxy.setDelay(20);
    const slow = performance.now();
    for (let i = 0; i < 5; i++) await a.query('SELECT 1');
    const delayed = (performance.now() - slow) / 5;
    // One query is one round trip: 20 ms there and 20 ms back on top of what it took without the delay.
    expect(delayed).toBeGreaterThanOrEqual(40);
    expect(delayed).toBeGreaterThan(undelayed + 35);

    await connectVia('delay-b');
    await connectVia('delay-b');
    expect(proxy.connections('delay-a')).toEqual({ opened: 1, open: 1 });
    expect(proxy.connections('delay-b')).toEqual({ opened: 2, open: 2 });
    expect(proxy.connections('nobody')).toEqual({ opened: 0, open: 0 });
    await a.end();
    for (let i = 0; i < 50 && proxy.connections('delay-a').open > 0; i++) await sleep(20);
    expect(proxy.connections('delay-a')).toEqual({ opened: 1, open: 0 });
    proxy.setDelay(0);
  });

  it("a partition silences one client's connections both ways without closing them; heal lets them through", async () => {
    const cut = await connectVia('cut');
    const other = await connectVia('other');
    let cutClosed = false;
    cut.on('end', () => {
      cutClosed = true;
    });
    const before = await backends();

    proxy.partition('cut');
    let answered = false;
    const pending = cut.query<{ n: number }>('SELECT 41 + 1 AS n').then((r) => {
      answered = true;
      return r.rows[0]?.n;
    });
    // A connection made during the partition does not reach the server either.
    const late = new pg.Client({ connectionString: await proxy.urlFor('cut', server.url) });
    late.on('error', () => {});
    clients.push(late);
    let lateConnected = false;
    const lateConnect = late.connect().then(() => {
      lateConnected = true;
    });
    await sleep(500);
    expect(answered, 'a query across the partition').toBe(false);
    expect(lateConnected, 'a connection made during the partition').toBe(false);
    // The other client is unaffected; the server still has the silenced session, nobody closed anything.
    expect((await other.query<{ n: number }>('SELECT 7 AS n')).rows[0]?.n).toBe(7);
    expect(await backends()).toBe(before);
    expect(cutClosed).toBe(false);
    expect(proxy.connections('cut')).toEqual({ opened: 2, open: 2 });

    proxy.heal('cut');
    expect(await pending).toBe(42);
    await lateConnect;
    expect((await late.query<{ n: number }>('SELECT 8 AS n')).rows[0]?.n).toBe(8);
    expect(await backends()).toBe(before + 1);
  });
});
