/**
 * One Discord gateway session for several replicas (DESIGN §9): replicas started like `npm start`
 * (`startApp`) on one real PostgreSQL database, against the fake Discord with the real discord.js client. Of two,
 * exactly one connects to the gateway and says `holder` on /healthz (the other `standby`, healthy too); a clean
 * stop hands the session over at the standby's next attempt; a holder killed with SIGKILL (a child process) is
 * replaced once its lease lapses. The lease TTL is shortened to 1.5 s (renewals every 500 ms), so a takeover
 * after a crash takes about 2 s instead of the 20 s of production's 15 s TTL; the measured times are printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer as createTcpServer, type Socket, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/main.js';
import { FakeDiscord } from '../discord/fake-discord.js';
import { commandOptions, IDS, interactionPayload, TOKEN } from '../discord/world.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

const TTL_MS = 1_500;
const ROOT = join(import.meta.dirname, '../..');
const SECRET_KEY = randomBytes(32).toString('base64');

let pg: TestPostgres;
let fake: FakeDiscord;
let sessions: GatewaySessions;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Live gateway connections at the fake Discord, counted from its HTTP server's upgrades (the fake keeps its
 * sockets to itself): `max` is the most ever open at once.
 */
class GatewaySessions {
  readonly #open = new Set<Socket>();
  max = 0;

  constructor(fake: FakeDiscord) {
    const server = Reflect.get(fake, 'server') as Server;
    server.on('upgrade', (req, socket: Socket) => {
      if (!(req.url ?? '').startsWith('/gateway')) return;
      this.#open.add(socket);
      this.max = Math.max(this.max, this.#open.size);
      socket.once('close', () => this.#open.delete(socket));
    });
  }

  get live(): number {
    return this.#open.size;
  }
}

async function world(): Promise<Record<string, string>> {
  fake = await new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
  }).start();
  sessions = new GatewaySessions(fake);
  cleanups.push(() => fake.close());
  return {
    DATABASE_URL: await pg.createDatabase(),
    REELBOT_SECRET_KEY: SECRET_KEY,
    PORT: '0',
    LOG_LEVEL: 'silent',
    DISCORD_TOKEN: TOKEN,
    DISCORD_APPLICATION_ID: IDS.app,
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_GUILD_ID: IDS.guild,
  };
}

async function replica(env: Record<string, string>): Promise<RunningApp> {
  const app = await startApp(env, { leaderTtlMs: TTL_MS });
  let stopped = false;
  cleanups.push(() => (stopped ? undefined : app.stop()));
  return {
    url: app.url,
    async stop() {
      stopped = true;
      await app.stop();
    },
  };
}

interface Health {
  ok: boolean;
  replica: string;
  store: string;
  gateway: string;
}

async function health(url: string): Promise<{ status: number; body: Health }> {
  const res = await fetch(`${url}/healthz`);
  return { status: res.status, body: (await res.json()) as Health };
}

async function metric(url: string, line: RegExp): Promise<number | undefined> {
  const res = await fetch(`${url}/metrics`);
  const text = await res.text();
  const found = text.split('\n').find((l) => line.test(l));
  return found === undefined ? undefined : Number(found.split(' ').at(-1));
}

/** Waits for `probe` (polling real processes and sockets); the deadline only turns a miss into a failure. */
async function until(
  probe: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20)); // real-time-ok: polls real sockets and HTTP
  }
}

/**
 * A slash command over the gateway, answered. The fake takes one answer per interaction (a second is refused as
 * already acknowledged), so waiting for a second one proves nothing: that one session answers is read from
 * `sessions`, which counts the live ones.
 */
async function slashAnswers(): Promise<number> {
  const slash = interactionPayload('chat-input', 'alice');
  slash.data.options = commandOptions(fake, ['help'], {});
  const asked = fake.dispatchInteraction(slash);
  await fake.waitFor(() => asked.callbacks.length > 0, 10_000);
  return asked.callbacks.length;
}

describe('the Discord gateway with two replicas on PostgreSQL', () => {
  it('is held by exactly one; a clean stop hands it to the other at its next attempt', async () => {
    const env = await world();
    const a = await replica({ ...env, REELBOT_REPLICA_ID: 'r1' });
    const b = await replica({ ...env, REELBOT_REPLICA_ID: 'r2' });
    expect(sessions.live).toBe(1);
    expect(fake.identifies).toHaveLength(1);

    expect(await health(a.url)).toEqual({
      status: 200,
      body: { ok: true, replica: 'r1', store: 'postgres', gateway: 'holder' },
    });
    expect(await health(b.url)).toEqual({
      status: 200,
      body: { ok: true, replica: 'r2', store: 'postgres', gateway: 'standby' },
    });
    expect(await metric(a.url, /^reelbot_gateway_leader /)).toBe(1);
    expect(await metric(b.url, /^reelbot_gateway_leader /)).toBe(0);
    expect(await metric(a.url, /^reelbot_gateway_lease_changes_total\{role="leader"\}/)).toBe(1);
    expect(await slashAnswers()).toBe(1);

    const stopped = performance.now();
    await a.stop();
    const handover = await until(
      async () => sessions.live === 1 && (await health(b.url)).body.gateway === 'holder',
      10_000,
      'handover',
    );
    console.info(`gateway handover after a clean stop: ${Math.round(performance.now() - stopped)} ms`);
    // At B's next attempt (every TTL/3), not after the TTL: the lease was released.
    expect(handover).toBeLessThan(TTL_MS);
    expect(fake.identifies).toHaveLength(2);
    expect(await metric(b.url, /^reelbot_gateway_leader /)).toBe(1);
    expect(await slashAnswers()).toBe(1);
    expect(sessions.max).toBe(1);
  }, 30_000);

  it('passes to the standby within the TTL when the holder is killed (SIGKILL)', async () => {
    const env = await world();
    const holder = await childReplica(env);
    expect(sessions.live).toBe(1);
    const b = await replica(env);
    expect((await health(b.url)).body.gateway).toBe('standby');
    expect((await health(holder.url)).body.gateway).toBe('holder');

    const killed = performance.now();
    holder.child.kill('SIGKILL');
    await until(() => sessions.live === 0, 5_000, 'the killed holder’s socket closed');
    const takeover = await until(
      async () => sessions.live === 1 && (await health(b.url)).body.gateway === 'holder',
      30_000,
      'takeover',
    );
    const total = Math.round(performance.now() - killed);
    console.info(`gateway takeover after SIGKILL: ${total} ms (TTL ${TTL_MS} ms)`);
    // The lease lapses TTL after the holder's last renewal; B's next attempt (≤ TTL/3 later) takes it.
    expect(total).toBeLessThan(30_000);
    expect(takeover).toBeLessThan(TTL_MS + TTL_MS / 3 + 2_000);
    expect(await slashAnswers()).toBe(1);
    expect(sessions.max).toBe(1);
  }, 40_000);

  it('is given up by a holder cut off from the database before the other takes it (never two sessions)', async () => {
    const env = await world();
    const proxy = await DatabaseProxy.start(pg.port);
    const a = await replica({ ...env, DATABASE_URL: proxy.redirect(env.DATABASE_URL as string) });
    const b = await replica(env);
    expect((await health(a.url)).body.gateway).toBe('holder');

    const cut = performance.now();
    proxy.cut();
    await until(
      async () => (await health(b.url)).body.gateway === 'holder' && sessions.live === 1,
      10_000,
      'takeover',
    );
    console.info(
      `gateway takeover from a holder cut off from PostgreSQL: ${Math.round(performance.now() - cut)} ms`,
    );
    expect((await health(a.url)).body).toMatchObject({ ok: true, gateway: 'standby' });
    expect(await metric(a.url, /^reelbot_gateway_leader /)).toBe(0);
    expect(await metric(a.url, /^reelbot_gateway_lease_changes_total\{role="follower"\}/)).toBe(1);
    // A stepped down (and logged out) at 80 % of the TTL; the database let B in only once the TTL had passed.
    expect(sessions.max).toBe(1);
    expect(await slashAnswers()).toBe(1);
  }, 30_000);
});

/** A TCP proxy to the test server; `cut()` closes it and every connection through it (the database is gone). */
class DatabaseProxy {
  readonly #sockets = new Set<Socket>();
  private constructor(
    readonly server: ReturnType<typeof createTcpServer>,
    readonly port: number,
  ) {}

  static async start(target: number): Promise<DatabaseProxy> {
    const server = createTcpServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
    const proxy = new DatabaseProxy(server, port);
    server.on('connection', (downstream) => {
      const upstream = tcpConnect(target, '127.0.0.1');
      for (const socket of [downstream, upstream]) {
        proxy.#sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => proxy.#sockets.delete(socket));
      }
      downstream.pipe(upstream).pipe(downstream);
      downstream.on('close', () => upstream.destroy());
      upstream.on('close', () => downstream.destroy());
    });
    cleanups.push(() => proxy.cut());
    return proxy;
  }

  redirect(url: string): string {
    const through = new URL(url);
    through.port = String(this.port);
    return through.toString();
  }

  cut(): void {
    this.server.close();
    for (const socket of this.#sockets) socket.destroy();
  }
}

/** A replica in a child process (as `npm start` runs it), with the short TTL: SIGKILL leaves its lease held. */
async function childReplica(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const script = [
    "const { startApp } = await import('./src/main.ts');",
    `const app = await startApp(process.env, { leaderTtlMs: ${TTL_MS} });`,
    "process.stdout.write('READY ' + app.url + '\\n');",
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /READY (\S+)/.exec(out)?.[1];
      if (ready) resolve(ready);
    });
    child.once('exit', (code) => reject(new Error(`the child replica exited (${code}): ${stderr}`)));
  });
  return { url, child };
}
