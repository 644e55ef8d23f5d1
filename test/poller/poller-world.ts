/**
 * What every poller test builds on: a fresh TestClock, store and logger per test on each store of STORES (the
 * exported bindings are live, so a test reads the ones its own beforeEach made), a watch to poll, a watcher the
 * test scripts and a poller wired to them.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { LookTrouble, StopReason, Watcher, WatchResult } from '../../src/core/live/watcher.js';
import type { NewWatch, Watch, WatchKind } from '../../src/core/ports/index.js';
import { VideoApiError } from '../../src/core/video-api/video-api.js';
import { Poller, type PollerOptions } from '../../src/poller/poller.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { ALICE, CONV, processing, recordingLogger, STORES, scriptedApi, T0 } from './support.js';

export const HOUR = 3600_000;
/** The fake watcher's longest interval (30 s) less the pass period the poller keeps in hand (1 s). */
export const LATEST = 29_000;

export let clock: TestClock;
export let store: SqliteStore;
export let logger: ReturnType<typeof recordingLogger>;

export async function addWatch(patch: Partial<NewWatch> = {}): Promise<Watch> {
  return await store.watches.add({
    kind: 'generation',
    target: 'v1',
    owner: ALICE,
    conversation: CONV,
    cardKey: null,
    state: {},
    nextCheckAt: clock.now(),
    expiresAt: clock.now() + 24 * HOUR,
    ...patch,
  });
}

/** A watcher whose check the test scripts; records every check it was asked for. */
export function fakeWatcher(
  check: (watch: Watch) => WatchResult | Promise<WatchResult> = (watch) => ({
    state: watch.state,
    done: false,
  }),
  bounds: { min?: number; max?: number; kind?: WatchKind } = {},
) {
  const checked: Watch[] = [];
  const expired: Watch[] = [];
  const reasons: StopReason[] = [];
  const troubles: LookTrouble[] = [];
  const watcher = {
    kind: bounds.kind ?? 'generation',
    minIntervalMs: bounds.min ?? 10_000,
    maxIntervalMs: bounds.max ?? 30_000,
    async check(_ctx, watch) {
      checked.push(watch);
      return await check(watch);
    },
    expire({ watch, reason }) {
      expired.push(watch);
      reasons.push(reason);
      return Promise.resolve();
    },
    trouble({ event }) {
      troubles.push(event);
      return Promise.resolve();
    },
  } satisfies Watcher;
  return { watcher, checked, expired, reasons, troubles };
}

export function poller(options: Partial<PollerOptions> & Pick<PollerOptions, 'watchers'>): Poller {
  const { api } = scriptedApi((id) => processing(id, 10));
  return new Poller({
    store,
    apiFor: () => api,
    clock,
    logger,
    concurrency: 4,
    random: () => 0.5, // no jitter unless a test asks for it
    ...options,
  });
}

export const apiError = (type: string, details: VideoApiError['details'] = {}) =>
  new VideoApiError(type, `${type} from the service`, details);

/** Runs `suite` once on each store of STORES, each test on a fresh clock, store and logger. */
export function onEachStore(suite: () => void): void {
  describe.each(STORES)('on the $name store', (fixture) => {
    let opened: ReturnType<(typeof STORES)[number]['open']>;
    beforeEach(() => {
      clock = new TestClock(T0);
      opened = fixture.open(clock);
      store = opened.store;
      logger = recordingLogger();
    });
    afterEach(() => opened.close());

    suite();
  });
}
