/**
 * Counts the client's HTTP attempts in flight: started when undici dispatches them, ended when the client
 * reports the attempt through `onResponse` (success, error status, timeout or connection error alike).
 * A virtual-time driver needs it to know when the system has nothing left to do at the current instant.
 */
import { Agent, type Dispatcher } from 'undici';
import type { ResponseEvent } from '../../src/api/index.js';

export class HttpMeter {
  readonly dispatcher: Dispatcher;
  started = 0;
  ended = 0;
  readonly statuses = new Map<number, number>();
  readonly routes = new Map<string, number>();
  #waiters: (() => void)[] = [];

  constructor(connections = 64) {
    this.dispatcher = new Agent({ connections, keepAliveTimeout: 30_000 }).compose(
      (dispatch) => (opts, handler) => {
        this.started++;
        return dispatch(opts, handler);
      },
    );
  }

  get inFlight(): number {
    return this.started - this.ended;
  }

  /** Wire to the client's `onResponse`. */
  readonly onResponse = (event: ResponseEvent): void => {
    this.ended++;
    this.statuses.set(event.status, (this.statuses.get(event.status) ?? 0) + 1);
    const route = `${event.method} ${event.route}`;
    this.routes.set(route, (this.routes.get(route) ?? 0) + 1);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  };

  /** Resolves at the next attempt's end. */
  nextResponse(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }

  reset(): void {
    this.started -= this.ended;
    this.ended = 0;
    this.statuses.clear();
    this.routes.clear();
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Waits until no attempt is in flight for a few event-loop turns in a row: every check that could run at
 * this virtual instant has run (the rest wait on virtual timers). Sleeps on responses rather than spinning,
 * so the CPU it costs is negligible.
 */
export async function settle(meter: HttpMeter, options: { quietTurns?: number; maxRealMs?: number } = {}) {
  const quietTurns = options.quietTurns ?? 3;
  const deadline = performance.now() + (options.maxRealMs ?? 120_000);
  let quiet = 0;
  while (quiet < quietTurns) {
    if (performance.now() > deadline) throw new Error('settle: the system never went quiet');
    if (meter.inFlight > 0) {
      quiet = 0;
      await Promise.race([meter.nextResponse(), new Promise((r) => setTimeout(r, 1000).unref())]);
      continue;
    }
    await turn();
    quiet = meter.inFlight === 0 ? quiet + 1 : 0;
  }
}
