/**
 * A throwaway PostgreSQL server for tests: a fresh cluster in a temp dir, listening on a free 127.0.0.1 port,
 * trust auth, fsync off. One per test file (beforeAll/afterAll); several databases inside with createDatabase.
 *
 * The binaries are Debian's (`postgresql` package, installed by .ci/run): the newest /usr/lib/postgresql/<n>/bin,
 * else `pg_config --bindir`, else $REELBOT_PG_BINDIR. As root, initdb and the server run as the `postgres` OS
 * user (PostgreSQL refuses root) through runuser, or su where runuser is missing.
 *
 * initdb costs ~2.5 s, so its output is made once per machine and PostgreSQL version (a template directory in
 * the temp dir, published by an atomic rename so parallel test files never see half of one) and copied for each
 * cluster, into /dev/shm when there is one (~0.3 s). Each cluster gets its own dir, port and Unix socket dir,
 * so test files run in parallel. $REELBOT_PG_TMPDIR overrides both places.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  accessSync,
  appendFileSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the maintenance database, superuser, no password. */
  url: string;
  port: number;
  /** The temp dir holding the cluster (data/, server.log, the Unix socket); removed by stop(). */
  dir: string;
  /** How long start took (ms), template copy or initdb included. */
  startMs: number;
  /**
   * Creates a database and returns its URL. Its default collation is ICU `en-US` when the server has ICU (as
   * most production servers sort text by a language, not by bytes), so code relying on byte order without
   * `COLLATE "C"` fails here rather than in production.
   */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (immediate shutdown) and removes its dir. Idempotent. */
  stop(): Promise<void>;
}

interface Binaries {
  dir: string;
  version: string;
}

const OS_USER = 'postgres';
const PORT_ATTEMPTS = 5;
const INITDB_ARGS = ['-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'];

/** Clusters this process started and has not stopped: stopped on exit if a test file forgot (or crashed). */
const running = new Map<string, Binaries>();
let exitHookInstalled = false;

/** Starts a fresh cluster. Throws with the server log's tail if it cannot. */
export async function startPostgres(): Promise<TestPostgres> {
  const started = performance.now();
  const bin = await findBinaries();
  const template = await ensureTemplate(bin);
  const dir = mkdtempSync(join(clusterBaseDir(), 'reelbot-pg-'));
  const data = join(dir, 'data');
  installExitHook();
  running.set(dir, bin);
  try {
    asPostgresOwner(dir);
    await run('cp', ['-a', template, data]);
  } catch (error) {
    await stopCluster(dir, bin);
    throw error;
  }

  let port = 0;
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS && port === 0; attempt++) {
    const candidate = await freePort();
    // Appended settings win over earlier ones: a retry only needs another port line.
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        '',
        "listen_addresses = '127.0.0.1'",
        `port = ${candidate}`,
        `unix_socket_directories = '${dir}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'shared_buffers = 16MB',
        'max_connections = 60',
        '',
      ].join('\n'),
    );
    try {
      await asPostgres(bin, 'pg_ctl', ['start', '-w', '-t', '30', '-D', data, '-l', join(dir, 'server.log')]);
      port = candidate;
    } catch (error) {
      // Most likely another process took the port between freePort() and the bind: try another one.
      lastError = error;
    }
  }
  if (port === 0) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    await stopCluster(dir, bin);
    throw new Error(`PostgreSQL did not start in ${dir}: ${String(lastError)}\n${log.slice(-2000)}`);
  }

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const icu = await hasIcu(url);
  return {
    url,
    port,
    dir,
    startMs: Math.round(performance.now() - started),
    createDatabase: async (name = `db_${randomBytes(6).toString('hex')}`) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const collation = icu ? " LOCALE_PROVIDER icu ICU_LOCALE 'en-US'" : '';
      await withClient(url, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0${collation}`));
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop: () => stopCluster(dir, bin),
  };
}

/** Runs `fn` with a single connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function hasIcu(url: string): Promise<boolean> {
  const { rows } = await withClient(url, (c) =>
    c.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_collation WHERE collprovider = 'i'"),
  );
  return (rows[0]?.n ?? 0) > 0;
}

async function stopCluster(dir: string, bin: Binaries): Promise<void> {
  if (!running.delete(dir)) return;
  try {
    await asPostgres(bin, 'pg_ctl', ['stop', '-w', '-t', '30', '-m', 'immediate', '-D', join(dir, 'data')]);
  } catch {
    killPostmaster(dir);
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Synchronous, for the exit hook: SIGQUIT is PostgreSQL's immediate shutdown. */
function killPostmaster(dir: string): void {
  try {
    const pid = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    // Not running (no pid file) or already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const dir of running.keys()) {
      killPostmaster(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The newest /usr/lib/postgresql/<n>/bin with a server, else pg_config's bindir, else $REELBOT_PG_BINDIR. */
async function findBinaries(): Promise<Binaries> {
  const candidates: string[] = [];
  if (process.env.REELBOT_PG_BINDIR) candidates.push(process.env.REELBOT_PG_BINDIR);
  try {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {
    // No Debian layout.
  }
  try {
    candidates.push((await run('pg_config', ['--bindir'])).stdout.trim());
  } catch {
    // No pg_config.
  }
  const dir = candidates.find((d) => ['initdb', 'pg_ctl', 'postgres'].every((b) => isExecutable(join(d, b))));
  if (!dir) {
    throw new Error(
      "No PostgreSQL server binaries (initdb, pg_ctl, postgres) found: install Debian's postgresql package " +
        '(.ci/run does it as root) or set REELBOT_PG_BINDIR.',
    );
  }
  const version = (await run(join(dir, 'postgres'), ['--version'])).stdout.trim();
  return { dir, version };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** initdb's output for these binaries, made once and shared by every cluster (see the file comment). */
async function ensureTemplate(bin: Binaries): Promise<string> {
  const key = createHash('sha256')
    .update(`${bin.dir}\n${bin.version}\n${INITDB_ARGS.join(' ')}\n${process.getuid?.()}`)
    .digest('hex')
    .slice(0, 16);
  const template = join(baseDir(), `reelbot-pg-template-${key}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;

  const work = mkdtempSync(join(baseDir(), 'reelbot-pg-initdb-'));
  asPostgresOwner(work);
  try {
    await asPostgres(bin, 'initdb', [...INITDB_ARGS, '-D', join(work, 'data')]);
    try {
      renameSync(join(work, 'data'), template);
    } catch (error) {
      // Another test file published the same template first: use theirs.
      if (!existsSync(join(template, 'PG_VERSION'))) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return template;
}

/** The template lives on disk (it stays between runs); the initdb work dir beside it, so the rename is atomic. */
function baseDir(): string {
  return process.env.REELBOT_PG_TMPDIR ?? tmpdir();
}

/** Clusters live in RAM when /dev/shm is there: copying the template to disk took ~2 s, to tmpfs ~0.3 s. */
function clusterBaseDir(): string {
  if (process.env.REELBOT_PG_TMPDIR) return process.env.REELBOT_PG_TMPDIR;
  try {
    accessSync('/dev/shm', constants.W_OK | constants.X_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** As root, the postgres OS user must own what the server writes. */
function asPostgresOwner(path: string): void {
  if (!isRoot()) return;
  const { uid, gid } = postgresUser();
  chownSync(path, uid, gid);
}

let postgresIds: { uid: number; gid: number } | undefined;
function postgresUser(): { uid: number; gid: number } {
  if (postgresIds) return postgresIds;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${OS_USER}:`));
  if (!line) throw new Error(`running as root, but there is no '${OS_USER}' OS user to run PostgreSQL as`);
  const [, , uid, gid] = line.split(':');
  postgresIds = { uid: Number(uid), gid: Number(gid) };
  return postgresIds;
}

/** Runs a PostgreSQL binary, as the postgres OS user when we are root. */
async function asPostgres(bin: Binaries, program: string, args: string[]): Promise<void> {
  const path = join(bin.dir, program);
  // Run from / so the postgres user never needs access to our working directory.
  const options = { cwd: '/', timeout: 60_000 };
  if (!isRoot()) {
    await run(path, args, options);
  } else if (isExecutable('/usr/sbin/runuser') || isExecutable('/sbin/runuser')) {
    await run('runuser', ['-u', OS_USER, '--', path, ...args], options);
  } else {
    const quoted = [path, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
    await run('su', [OS_USER, '-s', '/bin/sh', '-c', quoted], options);
  }
}
