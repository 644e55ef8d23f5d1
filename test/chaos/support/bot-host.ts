/**
 * The bot as a child process for the chaos rig (../fixtures/bot-process.ts): started, SIGKILLed and
 * restarted on the same files; requests asked of a process that died unanswered are re-sent to the next
 * one, as a person would retry.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Response } from '../../../src/core/text/cards.js';
import type { BotProcessConfig, BotRequest } from '../fixtures/bot-process.js';

const ROOT = join(import.meta.dirname, '../../..');
const FIXTURE = 'test/chaos/fixtures/bot-process.ts';

/** The bot child: requests survive a kill and are re-sent to the next process (the user retries). */
/** What a bot process says: ready, a look finished, or the answer to a request. */
interface ProcessMessage {
  ready?: number;
  progress?: string;
  id?: number;
  response?: Response;
  crash?: string;
}

export class BotHost {
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #ready: Promise<void> | undefined;
  /** The current process said ready (requests sent earlier could be lost before its listener exists). */
  #isReady = false;
  #next = 1;
  readonly #pending = new Map<number, { msg: BotRequest; resolve: (r: Response | undefined) => void }>();
  starts = 0;
  stderr = '';
  /** Called after a request is handed to a process for the first time (not when re-sent after a restart). */
  onSend: (msg: BotRequest) => void = () => {};
  /** When the current process said ready (ms since the epoch). */
  readyAt = 0;
  /**
   * Answers given and poller looks finished by the current process. A killer waits for one before killing it:
   * on a loaded machine a process can need longer than a kill interval to finish anything, and a run that only
   * restarts tests nothing.
   */
  progress = 0;

  constructor(private readonly config: BotProcessConfig) {}

  start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, JSON.stringify(this.config)], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child = child;
    this.#isReady = false;
    this.progress = 0;
    this.starts++;
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.#ready = new Promise<void>((resolve, reject) => {
      child.on('message', (msg: ProcessMessage) => {
        if (msg.ready) {
          this.#isReady = true;
          resolve();
          // Everything asked of the previous process and never answered is asked again.
          this.readyAt = Date.now();
          for (const [, p] of this.#pending) child.send(p.msg, () => {});
          return;
        }
        if (msg.progress) {
          this.progress++;
          return;
        }
        const waiting = msg.id === undefined ? undefined : this.#pending.get(msg.id);
        if (!waiting) return;
        this.#pending.delete(msg.id as number);
        this.progress++;
        waiting.resolve(msg.response);
      });
      child.once('exit', (code, signal) => {
        this.#isReady = false;
        if (signal !== 'SIGKILL' && signal !== 'SIGTERM')
          reject(new Error(`bot exited (${code ?? signal}) before ready: ${this.stderr}`));
      });
    });
    return this.#ready;
  }

  /** Sends a request; resolves with the answer of whichever process answers it (undefined on crash). */
  ask(msg: Omit<BotRequest, 'id'>, timeoutMs: number): Promise<Response | undefined> {
    const id = this.#next++;
    const full = { ...msg, id } as BotRequest;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.#pending.set(id, {
        msg: full,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
      const child = this.#child;
      if (this.#isReady && child?.connected) {
        child.send(full, () => {});
        this.onSend(full);
      }
    });
  }

  get alive(): boolean {
    return !!this.#child && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  async kill(): Promise<void> {
    if (!this.alive) return;
    this.#child?.kill('SIGKILL');
    await this.#exited;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    this.#child?.kill('SIGTERM');
    const timer = setTimeout(() => this.#child?.kill('SIGKILL'), 10_000);
    await this.#exited;
    clearTimeout(timer);
  }
}
