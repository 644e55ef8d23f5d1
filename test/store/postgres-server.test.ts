/** The throwaway PostgreSQL server tests use (test/support/postgres.ts): real, isolated, gone when stopped. */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startPostgres, withClient } from '../support/postgres.js';

describe('a throwaway PostgreSQL server for tests', () => {
  it('starts several clusters in parallel, each on its own port and dir, and stop removes each', async () => {
    const servers = await Promise.all([startPostgres(), startPostgres(), startPostgres()]);
    try {
      expect(new Set(servers.map((s) => s.port)).size).toBe(3);
      expect(new Set(servers.map((s) => s.dir)).size).toBe(3);
      for (const server of servers) {
        expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
        const { rows } = await withClient(server.url, (c) =>
          c.query<{ port: string; listen: string; fsync: string }>(
            `SELECT current_setting('port') AS port, current_setting('listen_addresses') AS listen,
                    current_setting('fsync') AS fsync`,
          ),
        );
        expect(rows[0]).toEqual({ port: String(server.port), listen: '127.0.0.1', fsync: 'off' });
      }
      // Databases of one cluster are separate, and invisible from another cluster.
      const url = await servers[0]!.createDatabase('reelbot_a');
      await withClient(url, (c) => c.query('CREATE TABLE only_here (n INT)'));
      const other = await withClient(servers[1]!.url, (c) =>
        c.query("SELECT 1 FROM pg_database WHERE datname = 'reelbot_a'"),
      );
      expect(other.rowCount).toBe(0);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    for (const server of servers) {
      expect(existsSync(server.dir)).toBe(false);
      const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 2000 });
      await expect(client.connect()).rejects.toThrow(/ECONNREFUSED/);
    }
    // Stopping twice is harmless.
    await servers[0]!.stop();
  });

  it('makes databases whose default collation is not byte order (when the server has ICU)', async () => {
    const server = await startPostgres();
    try {
      const url = await server.createDatabase();
      const { rows } = await withClient(url, (c) =>
        c.query<{ icu: string | null; c_order: string[]; default_order: string[] }>(
          `SELECT (SELECT daticulocale FROM pg_database WHERE datname = current_database()) AS icu,
                  (SELECT array_agg(x ORDER BY x COLLATE "C") FROM unnest(ARRAY['b', 'B', 'a']) x) AS c_order,
                  (SELECT array_agg(x ORDER BY x) FROM unnest(ARRAY['b', 'B', 'a']) x) AS default_order`,
        ),
      );
      expect(rows[0]!.c_order).toEqual(['B', 'a', 'b']);
      if (rows[0]!.icu !== null) expect(rows[0]!.default_order).toEqual(['a', 'b', 'B']);
      await expect(server.createDatabase('x; DROP')).rejects.toThrow(/not a plain database name/);
    } finally {
      await server.stop();
    }
  });
});
