/**
 * One reelbot replica as a child process, started as `npm start` starts it (the compiled bot, `node dist/main.js`) with its own
 * environment: PORT=0, the shared DATABASE_URL and secret key, its REELBOT_REPLICA_ID. Its stdout and
 * stderr go to a log file. It can be SIGKILLed (no clean-up runs: its leases lapse), stopped with SIGTERM, or
 * paused with SIGSTOP and resumed with SIGCONT (a frozen VM or container, a long GC: it holds whatever it held).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiledBotArgs } from '../../support/compiled-bot.js';

const ROOT = join(import.meta.dirname, '../../..');
// real-time-ok: child processes on the real clock
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ReplicaHealth {
  status: number;
  body: Record<string, unknown>;
}

export class Replica {
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  /** `http://127.0.0.1:<port>` once started. */
  url = '';
  /** When it was SIGKILLed (ms since the epoch), if it was. */
  killedAt: number | undefined;
  /** Whether it is stopped by SIGSTOP right now. */
  paused = false;

  constructor(
    readonly id: string,
    private readonly env: Record<string, string>,
    readonly logPath: string,
  ) {}

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get alive(): boolean {
    return !!this.#child && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /**
   * Spawns the process and waits until its `/healthz` answers 200. PORT=0: the kernel gives each replica a free
   * port, and the replica's own start-up banner says which (a port picked here could be taken by another
   * process before the replica binds it, and that process's `/healthz` would answer for it).
   */
  async start(timeoutMs = 45_000): Promise<void> {
    const log = createWriteStream(this.logPath, { flags: 'a' });
    const child = spawn(process.execPath, compiledBotArgs(), {
      cwd: ROOT,
      // Only what a replica is given: nothing of the test runner's environment but what Node needs.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let banner = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      if (!this.url) {
        banner += chunk.toString();
        this.url = /Health: (http:\/\/\S+)\/healthz/.exec(banner)?.[1] ?? '';
      }
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const until = Date.now() + timeoutMs;
    for (;;) {
      const last = this.url ? await this.health() : undefined;
      if (last?.status === 200) return;
      if (!this.alive) throw new Error(`replica ${this.id} exited before it was ready: ${this.logTail()}`);
      if (Date.now() > until)
        throw new Error(
          `replica ${this.id} not ready in ${timeoutMs} ms (/healthz ${JSON.stringify(last)}): ${this.logTail()}`,
        );
      // real-time-ok: polls the replica's /healthz until it answers
      await sleep(100);
    }
  }

  /** `/healthz`, or undefined when the replica does not answer. */
  async health(): Promise<ReplicaHealth | undefined> {
    try {
      const res = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    } catch {
      return undefined;
    }
  }

  /** kill -9: nothing of the process's own shutdown runs. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.killedAt = Date.now();
    this.#child?.kill('SIGKILL');
    await this.#exited;
  }

  /** SIGSTOP: the process stops where it is, its connections and sockets open, until `resume`. */
  pause(): void {
    if (!this.alive || this.paused) return;
    this.#child?.kill('SIGSTOP');
    this.paused = true;
  }

  /** SIGCONT: it goes on from where it stopped. */
  resume(): void {
    if (!this.alive || !this.paused) return;
    this.#child?.kill('SIGCONT');
    this.paused = false;
  }

  /** SIGTERM (the process stops its components), SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.alive) return;
    this.resume();
    this.#child?.kill('SIGTERM');
    // real-time-ok: a replica that ignores SIGTERM is killed after a grace period
    const timer = setTimeout(() => this.#child?.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }

  logTail(chars = 2_000): string {
    try {
      return readFileSync(this.logPath, 'utf8').slice(-chars);
    } catch {
      return '(no log)';
    }
  }
}
