/**
 * `/healthz` says which replica answers, on which store, and its part in the Discord gateway:
 * `none` without a gateway (no Discord, or Discord over HTTP interactions, which every replica serves and which
 * takes no lease), `holder` for the one process on SQLite. `/metrics` carries the gateway gauge and the lease
 * counters from the start. (Two replicas contending: gateway-lease.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/main.js';
import { GATEWAY_LEASE } from '../../src/replicas/gateway-lease.js';
import { FakeDiscord } from '../discord/fake-discord.js';
import { IDS, TOKEN } from '../discord/world.js';
import { discordSigner } from '../support/ed25519.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

let server: TestPostgres;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(env: Record<string, string>): Promise<RunningApp> {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-health-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const started = await startApp({ REELBOT_DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', ...env });
  cleanups.push(() => started.stop());
  return started;
}

async function discord(): Promise<Record<string, string>> {
  const fake = await new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
  }).start();
  cleanups.push(() => fake.close());
  return {
    DISCORD_TOKEN: TOKEN,
    DISCORD_APPLICATION_ID: IDS.app,
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_GUILD_ID: IDS.guild,
  };
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as unknown };
};
const metrics = async (url: string) => {
  const res = await fetch(`${url}/metrics`);
  return await res.text();
};

it('the demo on SQLite: store sqlite, no gateway', async () => {
  const { url } = await app({});
  expect(await get(`${url}/healthz`)).toEqual({
    status: 200,
    body: {
      ok: true,
      replica: expect.stringMatching(/^.+-\d+-[0-9a-f]{6}$/),
      store: 'sqlite',
      gateway: 'none',
    },
  });
  const text = await metrics(url);
  expect(text).toMatch(/^reelbot_gateway_leader 0$/m);
  expect(text).toMatch(/^reelbot_watch_leases_lost_total 0$/m);
  expect(text).toContain('# TYPE reelbot_watch_claims_total counter');
  expect(text).toContain('# TYPE reelbot_gateway_lease_changes_total counter');
});

it('Discord over the gateway on SQLite: the one process holds the session, without a lease', async () => {
  const { url } = await app(await discord());
  expect(await get(`${url}/healthz`)).toMatchObject({
    status: 200,
    body: { ok: true, store: 'sqlite', gateway: 'holder' },
  });
  expect(await metrics(url)).toMatch(/^reelbot_gateway_leader 1$/m);
});

it('Discord over HTTP interactions on PostgreSQL: no gateway, no lease taken', async () => {
  const databaseUrl = await server.createDatabase();
  const { url } = await app({
    ...(await discord()),
    DISCORD_PUBLIC_KEY: discordSigner().publicKeyHex,
    DATABASE_URL: databaseUrl,
    REELBOT_SECRET_KEY: randomBytes(32).toString('base64'),
  });
  expect(await get(`${url}/healthz`)).toMatchObject({
    status: 200,
    body: { ok: true, store: 'postgres', gateway: 'none' },
  });
  expect(await metrics(url)).toMatch(/^reelbot_gateway_leader 0$/m);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  cleanups.push(() => pool.end());
  const { rows } = await pool.query('SELECT holder FROM leases WHERE name = $1', [GATEWAY_LEASE]);
  expect(rows).toEqual([]);
});
