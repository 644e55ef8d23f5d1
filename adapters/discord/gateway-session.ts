/**
 * The deployment's one gateway session (DESIGN §9): Discord sends each interaction to every session of a bot,
 * so of several replicas only the one leading a leader lease logs in; it logs out when it steps down, and
 * another logs in when it leads. Without a `GatewayLeadership` (one process on SQLite) this one always holds
 * it. Logins and logouts run one at a time, in the order the lead changed; a failed login while leading is
 * tried again (Discord down for a moment must not leave the deployment deaf until the lease changes hands).
 */
import type { Client } from 'discord.js';
import type { Clock, Logger } from '../../src/core/index.js';
import { loggable } from './log-error.js';

/** Whether this process may hold the gateway session: a leader lease among replicas. */
export interface GatewayLeadership {
  /** Starts contending; `onChange(true)` once this process leads, `(false)` when it steps down. */
  start(onChange: (leading: boolean) => void): Promise<void>;
  /** Stops contending and gives the lead up, so another replica takes it at its next attempt. */
  stop(): Promise<void>;
}

export interface GatewaySessionOptions {
  /** Logs a new client in; rejects (the client destroyed) when it cannot. */
  connect(): Promise<Client>;
  leadership?: GatewayLeadership;
  clock: Clock;
  log: Logger;
  /** Wait before logging in again after a failed login while leading (default 5 s). */
  retryMs?: number;
}

export class GatewaySession {
  readonly #o: GatewaySessionOptions;
  #client: Client | undefined;
  #leading = false;
  #stopping = false;
  /** Logins and logouts, one after the other. */
  #chain: Promise<void> = Promise.resolve();
  #lastFailure: unknown;
  #retry: AbortController | undefined;

  constructor(options: GatewaySessionOptions) {
    this.#o = options;
  }

  /**
   * Logs in at once without leadership; with it, starts contending and, when leading after the first attempt,
   * logs in before resolving. A login failing here rejects, so a wrong token stops start-up as before.
   */
  async start(): Promise<void> {
    const { leadership } = this.#o;
    if (leadership) await leadership.start((leading) => this.#lead(leading));
    else this.#lead(true);
    await this.#chain;
    if (this.#leading && !this.#client && this.#lastFailure !== undefined) {
      this.#retry?.abort();
      throw this.#lastFailure;
    }
  }

  /** Logs out first, then gives the lead up: the next holder never overlaps this one. */
  async stop(): Promise<void> {
    this.#lead(false);
    this.#stopping = true;
    await this.#chain;
    await this.#o.leadership?.stop();
    await this.#chain;
  }

  #lead(leading: boolean): void {
    if (this.#stopping) return;
    this.#leading = leading;
    this.#retry?.abort();
    this.#retry = undefined;
    // A failed logout must not stop the chain: later changes of lead still have to be acted on.
    this.#chain = this.#chain
      .then(() => this.#sync())
      .catch((error: unknown) =>
        this.#o.log.error({ err: loggable(error) }, 'discord gateway logout failed'),
      );
  }

  /** Brings the session in line with the lead as it is now (it may have changed while queued). */
  async #sync(): Promise<void> {
    if (!this.#leading && this.#client) {
      const client = this.#client;
      this.#client = undefined;
      await client.destroy();
      this.#o.log.info({}, 'discord gateway disconnected: this process no longer holds the session');
      return;
    }
    if (!this.#leading || this.#client) return;
    try {
      this.#client = await this.#o.connect();
      this.#lastFailure = undefined;
    } catch (error) {
      this.#lastFailure = error;
      this.#o.log.error({ err: loggable(error) }, 'discord gateway login failed; trying again');
      this.#retryLater();
      return;
    }
    // The lead may have been lost during the login: #lead queued a sync that logs out again.
  }

  #retryLater(): void {
    const retry = new AbortController();
    this.#retry = retry;
    this.#o.clock.timer(this.#o.retryMs ?? 5_000, retry.signal).then(
      () => {
        if (this.#retry === retry && !this.#stopping) this.#lead(this.#leading);
      },
      () => {},
    );
  }
}
