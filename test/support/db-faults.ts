/**
 * Database faults at the worst moment: right after the video service took a write, the store's next commit
 * fails the way better-sqlite3 fails (a real `SqliteError`, `SQLITE_FULL` "database or disk is full", or
 * `SQLITE_BUSY`). Everything else is the real store, the real client and the real simulator.
 */
import Database from 'better-sqlite3';
import type { VideoApi, VideoApiFactory } from '../../src/core/video-api.js';
import type { Harness } from './harness.js';

const MESSAGES = { SQLITE_FULL: 'database or disk is full', SQLITE_BUSY: 'database is locked' } as const;

export interface CommitFault {
  /** How many commits failed so far. */
  readonly failed: number;
  /** Fails the next `times` commits that follow a call of `method` (`videos.create`, `posts.publish`…). */
  after(method: string, times?: number): void;
  /** Stops failing. */
  heal(): void;
}

export function commitFaults(h: Harness, code: keyof typeof MESSAGES = 'SQLITE_FULL'): CommitFault {
  let armedFor: string | undefined;
  let left = 0;
  let pending = false;
  let failed = 0;
  let depth = 0;
  const transaction = h.store.transaction.bind(h.store);
  h.store.transaction = <T>(fn: () => T): T => {
    if (depth === 0 && pending && left > 0) {
      left -= 1;
      pending = left > 0 && pending;
      failed += 1;
      throw new Database.SqliteError(MESSAGES[code], code);
    }
    depth += 1;
    try {
      return transaction(fn);
    } finally {
      depth -= 1;
    }
  };
  const original: VideoApiFactory = h.deps.apiFor;
  h.deps.apiFor = Object.assign((key: string) => watching(original(key)), original);
  function watching(api: VideoApi): VideoApi {
    return new Proxy(api, {
      get(target, group: string) {
        const resource = (target as unknown as Record<string, Record<string, unknown>>)[group];
        if (typeof resource !== 'object' || resource === null) return resource;
        return new Proxy(resource, {
          get(r, method: string) {
            const fn = r[method];
            if (typeof fn !== 'function') return fn;
            return async (...args: unknown[]) => {
              const result = await (fn as (...a: unknown[]) => Promise<unknown>).apply(r, args);
              if (armedFor === `${group}.${method}` && left > 0) pending = true;
              return result;
            };
          },
        });
      },
    });
  }
  return {
    get failed() {
      return failed;
    },
    after(method, times = 1) {
      armedFor = method;
      left = times;
      pending = false;
    },
    heal() {
      left = 0;
      pending = false;
    },
  };
}
