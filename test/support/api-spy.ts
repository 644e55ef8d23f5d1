/**
 * Watching the calls the bot makes through its API clients, for tests: `spyOnApi` wraps one client, and
 * `spyOnHarness` every client the harness builds from then on. The calls still go to the real client.
 */
import type { VideoApi, VideoApiFactory } from '../../src/core/video-api/video-api.js';

export interface ApiCall {
  /** `videos.create`, `posts.publish`… */
  name: string;
  args: unknown[];
}

export interface ApiSpy {
  /** As the call is made (before any answer). */
  before?(call: ApiCall): void;
  /** Once the call answered successfully. */
  after?(call: ApiCall): void;
}

type Group = Record<string, unknown>;

export function spyOnApi(api: VideoApi, spy: ApiSpy): VideoApi {
  return new Proxy(api, {
    get(target, group: string) {
      const resource = (target as unknown as Record<string, Group>)[group];
      if (typeof resource !== 'object' || resource === null) return resource;
      return new Proxy(resource, {
        get(r, method: string) {
          const fn = r[method];
          if (typeof fn !== 'function') return fn;
          return (...args: unknown[]) => {
            const call = { name: `${group}.${method}`, args };
            spy.before?.(call);
            const result = (fn as (...a: unknown[]) => unknown).apply(r, args);
            if (!spy.after) return result;
            return Promise.resolve(result).then((value) => {
              spy.after?.(call);
              return value;
            });
          };
        },
      });
    },
  });
}

/** Spies on every client `h.deps.apiFor` builds from now on; returns the factory it wrapped. */
export function spyOnHarness(h: { deps: { apiFor: VideoApiFactory } }, spy: ApiSpy): VideoApiFactory {
  const original = h.deps.apiFor;
  h.deps.apiFor = Object.assign(
    (key: string, o?: { unchecked?: boolean }) => spyOnApi(original(key, o), spy),
    original,
  );
  return original;
}
