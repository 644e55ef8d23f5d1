/**
 * The baseline for the poller benchmark: a NAIVE fixed-interval poller, as one would first write it. Every
 * 10 s it checks every active watch (the same watchers, the same client, the same store and outbox as the
 * real poller) and ignores everything the real one does to be frugal: no adaptive interval, no near-finish
 * timing, no background lane (it calls like any other caller), no deferring when the key's budget is short.
 * Each key's watches are checked one after the other (they share that key's budget anyway); different keys
 * run side by side, so one key waiting for its budget never holds up another.
 */
import type { Watcher } from '../src/core/live/watcher.js';
import type { Clock, Logger, Store, UserAddress, Watch, WatchKind } from '../src/core/ports/index.js';
import type { VideoApi } from '../src/core/video-api/video-api.js';

export interface NaivePollerOptions {
  store: Store;
  watchers: Partial<Record<WatchKind, Watcher>>;
  apiFor(owner: UserAddress): VideoApi | undefined | Promise<VideoApi | undefined>;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
  onCommit?(): void;
}

export class NaivePoller {
  readonly #o: NaivePollerOptions;
  readonly #inFlight = new Set<string>();
  readonly intervalMs: number;
  errors = 0;

  constructor(options: NaivePollerOptions) {
    this.#o = options;
    this.intervalMs = options.intervalMs ?? 10_000;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** One round: checks every active watch not still being checked; resolves when all are done. */
  async round(): Promise<void> {
    const byOwner = new Map<string, Watch[]>();
    for (const w of await this.#o.store.watches.active()) {
      if (this.#inFlight.has(w.id)) continue;
      this.#inFlight.add(w.id);
      const list = byOwner.get(w.owner) ?? [];
      list.push(w);
      byOwner.set(w.owner, list);
    }
    await Promise.all(
      [...byOwner.values()].map(async (list) => {
        for (const w of list) await this.#check(w);
      }),
    );
    this.#o.onCommit?.();
  }

  async #check(watch: Watch): Promise<void> {
    const { store, clock, logger } = this.#o;
    const watcher = this.#o.watchers[watch.kind];
    const api = await this.#o.apiFor(watch.owner);
    try {
      if (!watcher || !api) return;
      const result = await watcher.check({ api, store, now: clock.now(), logger }, watch);
      await store.transaction(async () => {
        if ((await store.watches.get(watch.id))?.status !== 'active') return;
        await result.apply?.(store);
        await store.watches.update(watch.id, {
          state: result.state,
          nextCheckAt: clock.now() + this.intervalMs,
          status: result.done ? 'done' : 'active',
        });
      });
    } catch {
      // A failed check (budget wait over the cap, 5xx) is simply tried again next round.
      this.errors++;
    } finally {
      this.#inFlight.delete(watch.id);
    }
  }
}
