/**
 * The durable poller (DESIGN §4). Watches live in SQLite; each pass picks the due ones, asks their watcher
 * what the job's state means, and commits the new watch state together with its chat effects (outbox rows)
 * in one transaction. Nothing is kept in memory that matters: a restarted process simply continues.
 *
 * The watchers adapt the interval (they return `nextCheckInMs`); the poller enforces each kind's bounds,
 * defers checks the key's background budget cannot afford yet, and turns failures into backoff or, for
 * errors that will not heal (revoked key, deleted video), a single give-up message.
 */
import { setMaxListeners } from 'node:events';
import { describeError } from '../core/dispatch/describe-error.js';
import type { LookTrouble, StopReason, Watcher, WatchResult } from '../core/live/watcher.js';
import type { Logger, UserAddress, Watch } from '../core/ports/index.js';
import { type VideoApi, VideoApiError } from '../core/video-api/video-api.js';
import { backgroundApi } from './background-api.js';
import {
  afterFailedLook,
  type FailureState,
  failureState,
  forWatcher,
  PERMANENT_ERRORS,
  POLLER_STATE_KEY,
} from './failure-state.js';
import { LockedDatabase } from './locked-database.js';
import { LookSchedule } from './look-schedule.js';
import { backgroundTurns } from './loop-turns.js';
import { pickDue } from './pick-due.js';
import type { CheckOutcome, PollerOptions } from './poller-options.js';
import { Slots } from './slots.js';
import { startTicker, type Ticker } from './ticker.js';
import { WatchLeases } from './watch-leases.js';

export type { CheckOutcome, PollerMetrics, PollerOptions } from './poller-options.js';

/** Batches one pass works through before leaving the rest to the next pass (every check moves its watch on). */
const MAX_BATCHES_PER_PASS = 50;

/** The owner has no usable key (unlinked, or unreadable after a secret-key change). */
class NoClientError extends Error {
  override readonly name = 'NoClientError';
}

/** One look at a watch: what is looked at, by which watcher, when it began, and where it logs. */
interface Look {
  watch: Watch;
  watcher: Watcher;
  started: number;
  log: Logger;
}

export class Poller {
  readonly #o: PollerOptions;
  readonly #slots: Slots;
  readonly #locked = new LockedDatabase(() => this.#o);
  readonly #inFlight = new Set<string>();
  readonly #ownerInFlight = new Map<UserAddress, number>();
  readonly #perOwner: number;
  readonly #running = new Set<Promise<void>>();
  readonly #leases: WatchLeases;
  readonly #schedule: LookSchedule;
  readonly #batchSize: number;
  readonly #serviceSpeed: number;
  #timer: Ticker | undefined;
  #stopped = false;
  /** Aborts the API calls of running checks on `stop()`. */
  #abort: AbortController;

  constructor(options: PollerOptions) {
    this.#o = options;
    this.#slots = new Slots(options.concurrency);
    this.#leases = new WatchLeases(options);
    this.#schedule = new LookSchedule(options);
    this.#batchSize = options.batchSize ?? 500;
    this.#perOwner = options.perOwnerConcurrency ?? 4;
    this.#serviceSpeed = options.serviceSpeed ?? 1;
    this.#abort = this.#newAbort();
  }

  /**
   * One signal for every running check: each of their calls listens to it (the transport, and the rate
   * budget while waiting), so up to two listeners per check are expected, not a leak.
   */
  #newAbort(): AbortController {
    const controller = new AbortController();
    setMaxListeners(this.#o.concurrency * 2 + 10, controller.signal);
    return controller;
  }

  /** Runs a pass now and then every `intervalMs`; passes overlap safely (a watch is never checked twice at once). */
  start(): void {
    if (this.#timer) return;
    this.#stopped = false;
    if (this.#abort.signal.aborted) this.#abort = this.#newAbort();
    const pass = () => {
      this.tick().catch((error: unknown) =>
        this.#o.logger.error({ err: describeError(error) }, 'poller pass failed; will retry'),
      );
    };
    this.#timer = startTicker(this.#o.clock, this.#schedule.passMs, pass);
    pass();
  }

  /**
   * Starts no new checks, cancels the API calls of running ones (a background call may be waiting for
   * budget), and resolves once every running check has committed or given up.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort(new Error('poller stopping'));
    this.#timer?.stop();
    this.#timer = undefined;
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /**
   * One pass: claims the due watches not already in flight (up to the batch) and resolves when their checks
   * are done. A full batch means a backlog: the pass goes on with the next batch at once instead of leaving
   * it for the next interval, so throughput is bounded by `concurrency` and the keys' budgets, not by the
   * batch size per interval (which capped 10,000 jobs at 100 checks a second: docs/performance.md).
   */
  async tick(): Promise<void> {
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS && !this.#stopped; batch++) {
      const room = this.#batchSize - this.#inFlight.size;
      if (room <= 0) return;
      const now = this.#o.clock.now();
      // In-flight watches are still due (their nextCheckAt moves only on commit): ask for enough to skip
      // them, and for more than the room so that one owner's backlog does not hide the others'.
      const due = (
        await this.#o.store.watches.due(now, room * 2 + this.#inFlight.size, this.#leases.holder)
      ).filter((watch) => !this.#inFlight.has(watch.id));
      const { picked, held } = pickDue(due, { room, perOwner: this.#perOwner, running: this.#ownerInFlight });
      if (picked.length === 0) return;
      // Another replica may have leased some of them since `due`: only those leased to this poller run.
      let leased: Watch[];
      try {
        leased = await this.#leases.claim(picked, now);
      } catch (error) {
        // A locked database: nothing leased, nothing checked; a later pass tries again.
        if (this.#locked.seen(error, this.#o.logger)) return;
        throw error;
      }
      this.#o.metrics?.claims?.(leased.length, picked.length - leased.length);
      const committed = await Promise.all(leased.map((watch) => this.#claim(watch)));
      if (committed.some(Boolean)) this.#o.onCommit?.();
      // Held back for their owner's limit: their turn comes now that this batch is done.
      if (picked.length < room && held === 0) return;
    }
  }

  /** Watches claimed and not finished (running or waiting for a slot). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  #claim(watch: Watch): Promise<boolean> {
    this.#inFlight.add(watch.id);
    this.#ownerInFlight.set(watch.owner, (this.#ownerInFlight.get(watch.owner) ?? 0) + 1);
    const run = (async () => {
      await this.#slots.acquire();
      try {
        await backgroundTurns.turn();
        // Re-read: while it waited for a slot, a command may have cancelled or changed it.
        const fresh = this.#stopped ? undefined : await this.#o.store.watches.get(watch.id);
        if (fresh?.status !== 'active') {
          await this.#leases.release(watch);
          return false;
        }
        return await this.#process({ ...fresh, ...(watch.lease && { lease: watch.lease }) });
      } finally {
        this.#slots.release();
        this.#inFlight.delete(watch.id);
        const left = (this.#ownerInFlight.get(watch.owner) ?? 1) - 1;
        if (left > 0) this.#ownerInFlight.set(watch.owner, left);
        else this.#ownerInFlight.delete(watch.owner);
      }
    })();
    const settled = run.then(
      () => {},
      () => {},
    );
    this.#running.add(settled);
    void settled.then(() => this.#running.delete(settled));
    return run.catch((error: unknown) => {
      // #process handles its own failures; this is a last line so one bad watch never stops the loop.
      this.#o.logger.error(
        { watchId: watch.id, kind: watch.kind, err: describeError(error) },
        'watch check crashed',
      );
      return false;
    });
  }

  /** Checks one watch; true when something was committed (the outbox may have work). */
  async #process(watch: Watch): Promise<boolean> {
    const { clock, metrics } = this.#o;
    const started = clock.now();
    const log = this.#o.logger.child({ watchId: watch.id, kind: watch.kind });
    const watcher = this.#o.watchers[watch.kind];
    metrics?.lag(watch.kind, Math.max(0, started - watch.nextCheckAt));
    const report = (outcome: CheckOutcome) => metrics?.checked(watch.kind, outcome, clock.now() - started);

    if (started >= watch.expiresAt) {
      await this.#finish({ watch, watcher, log }, { now: started, reason: 'expired' });
      log.info({}, 'watch expired');
      report('expired');
      return true;
    }
    if (!watcher) {
      log.warn({}, 'no watcher registered for this kind; checking again later');
      await this.#leases.reschedule(watch, started + (this.#o.missingWatcherDelayMs ?? 60_000));
      report('error');
      return false;
    }
    const budgetWait = await this.#budgetDelay(watch, watcher);
    if (budgetWait > 0) {
      // Holding a worker while the budget refills would starve other keys' watches; look again later.
      const wait = this.#schedule.deferral(watcher, budgetWait);
      await this.#leases.reschedule(watch, started + wait);
      log.debug({ waitMs: wait }, 'background budget exhausted; check deferred');
      report('deferred');
      return false;
    }

    const look: Look = { watch, watcher, started, log };
    let result: WatchResult;
    try {
      const api = await this.#clientFor(watch.owner);
      result = await watcher.check(
        { api, store: this.#o.store, now: started, logger: log, serviceSpeed: this.#serviceSpeed },
        forWatcher(watch),
      );
      // The look's answer is in: its commit (a card, the outbox) waits its turn behind people's requests.
      await backgroundTurns.turn();
      const outcome = await this.#locked.commit(() => this.#commit(look, result));
      report(outcome ?? 'active');
      return outcome !== undefined;
    } catch (error) {
      const outcome = await this.#failed(look, error);
      report(outcome);
      return outcome === 'gave_up';
    }
  }

  /** An owner whose key cannot be read has no budget to ask; the check then fails on `apiFor` and counts. */
  async #budgetDelay(watch: Watch, watcher: Watcher): Promise<number> {
    try {
      const deferrable = watcher.deferrable?.(forWatcher(watch)) ?? false;
      return (await this.#o.budgetDelay?.(watch.owner, watch.kind, { deferrable })) ?? 0;
    } catch {
      return 0;
    }
  }

  async #clientFor(owner: UserAddress): Promise<VideoApi> {
    let api: VideoApi | undefined;
    try {
      api = await this.#o.apiFor(owner);
    } catch (error) {
      throw new NoClientError(`no usable key: ${describeError(error).name}`);
    }
    if (!api) throw new NoClientError('no key for this owner');
    return backgroundApi(api, this.#abort.signal);
  }

  /** Applies a check's result and the watch update atomically; undefined if the watch was closed meanwhile. */
  async #commit({ watch, watcher, started }: Look, result: WatchResult): Promise<CheckOutcome | undefined> {
    const { store, clock } = this.#o;
    const previous = failureState(watch);
    const now = clock.now();
    const nextCheckAt = this.#schedule.afterLook(watcher, result.nextCheckInMs, { started, now });
    return await store.transaction(async () => {
      // Cancelled or finished by someone else while we were checking, or taken over by another replica once
      // this lease ran out: its effects would be stale or doubled.
      if (!(await this.#leases.stillLeased(watch))) return undefined;
      if ((await store.watches.get(watch.id))?.status !== 'active') return undefined;
      if (previous.noticed && previous.since !== undefined) {
        await this.#trouble(watcher, watch, { kind: 'recovered', since: previous.since, now });
      }
      await result.apply?.(store);
      const state = { ...result.state };
      delete state[POLLER_STATE_KEY];
      await store.watches.update(watch.id, { state, nextCheckAt, status: result.done ? 'done' : 'active' });
      return result.done ? 'done' : 'active';
    });
  }

  /** Tells the watcher about a streak of failed looks; its words must never break the poller. */
  async #trouble(watcher: Watcher, watch: Watch, event: LookTrouble): Promise<void> {
    try {
      await watcher.trouble?.({ store: this.#o.store, watch: forWatcher(watch), event });
    } catch (error) {
      this.#o.logger.error(
        { watchId: watch.id, kind: watch.kind, err: describeError(error) },
        'trouble notice failed; the watch goes on',
      );
    }
  }

  /** Records a failed look (and its words, if the streak calls for them) and when to look again. */
  async #recordFailure({ watch, watcher }: Look, failures: FailureState, nextCheckAt: number): Promise<void> {
    const { store, clock } = this.#o;
    await store.transaction(async () => {
      if (!(await this.#leases.stillLeased(watch))) return;
      if ((await store.watches.get(watch.id))?.status !== 'active') return;
      const { recorded, events } = afterFailedLook(failures, clock.now());
      for (const event of events) await this.#trouble(watcher, watch, event);
      await store.watches.update(watch.id, {
        state: { ...watch.state, [POLLER_STATE_KEY]: recorded },
        nextCheckAt,
      });
    });
  }

  /** Says goodbye once (the watcher's words for `reason`) and closes the watch. */
  async #finish(
    { watch, watcher, log }: { watch: Watch; watcher: Watcher | undefined; log: Logger },
    end: { now: number; reason: StopReason },
  ): Promise<void> {
    const { store } = this.#o;
    const close = async (withMessage: boolean) =>
      await store.transaction(async () => {
        if (!(await this.#leases.stillLeased(watch))) return;
        if ((await store.watches.get(watch.id))?.status !== 'active') return;
        if (withMessage)
          await watcher?.expire({ store, watch: forWatcher(watch), now: end.now, reason: end.reason });
        await store.watches.update(watch.id, { status: 'expired' });
      });
    try {
      await close(true);
    } catch (error) {
      // A broken expiry message must not keep a dead watch alive forever.
      log.error({ err: describeError(error) }, 'expiry message failed; closing the watch without it');
      await close(false);
    }
  }

  async #failed(look: Look, error: unknown): Promise<CheckOutcome> {
    const { watch, watcher, started, log } = look;
    if (this.#abort.signal.aborted) {
      // Not the job's fault: leave the watch due, untouched, for the next process (or another replica now).
      log.debug({ err: describeError(error) }, 'check interrupted by shutdown');
      await this.#leases.release(watch);
      return 'interrupted';
    }
    if (this.#locked.seen(error, log)) return 'deferred'; // nothing committed; the watch stays due
    const now = this.#o.clock.now();
    const type =
      error instanceof VideoApiError ? error.type : error instanceof NoClientError ? 'no_key' : 'unknown';
    const previous = failureState(watch);
    const streak = { streak: previous.streak + 1, since: previous.since ?? now };
    const context = {
      errorType: type,
      ...(error instanceof VideoApiError
        ? { status: error.status, requestId: error.details.requestId }
        : { err: describeError(error) }),
    };

    if (type === 'rate_limited') {
      const retryAfterMs = error instanceof VideoApiError ? (error.details.retryAfter ?? 0) * 1000 : 0;
      const wait = this.#schedule.rateLimited(watcher, retryAfterMs);
      await this.#recordFailure(look, { ...previous, ...streak }, now + wait);
      log.warn({ ...context, waitMs: wait }, 'watch check rate limited');
      return 'rate_limited';
    }

    const failures: FailureState = {
      ...previous,
      ...streak,
      failures: previous.failures + 1,
      permanent: PERMANENT_ERRORS.has(type) ? previous.permanent + 1 : 0,
    };
    const reason = PERMANENT_ERRORS.get(type);
    if (reason && failures.permanent >= (this.#o.maxPermanentFailures ?? 3)) {
      log.warn({ ...context, failures: failures.permanent }, 'watch cannot be checked any more; giving up');
      // The last failure names the reason: a key unlinked after a 404 was given up for the unlinking.
      await this.#finish(look, { now, reason });
      return 'gave_up';
    }
    const { waitMs, nextCheckAt } = this.#schedule.backoff(watcher, failures.failures, { started, now });
    await this.#recordFailure(look, failures, nextCheckAt);
    log.warn({ ...context, failures: failures.failures, waitMs }, 'watch check failed; backing off');
    return 'error';
  }
}
