/**
 * Polling runs on the `background` lane of the key's rate budget (DESIGN §4: polling may use at most half
 * of it, so the bot never causes a 429 for its users). Watchers receive a client that adds
 * `priority: 'background'` to every call, so no watcher can forget it.
 */
import { type ApiIndex, mapApi } from '../core/video-api/api-methods.js';
import type { CallOptions, VideoApi } from '../core/video-api/video-api.js';

/**
 * Where each method takes its `CallOptions` (argument index). Typed against `VideoApi`, so a new endpoint
 * fails to compile until it is listed here.
 */
const OPTIONS_AT = {
  me: { get: 0 },
  credits: { get: 1 },
  videos: {
    create: 1,
    caption: 1,
    list: 1,
    get: 1,
    update: 2,
    delete: 1,
    selectThumbnail: 2,
    status: 1,
    render: 2,
  },
  renders: { get: 1 },
  series: { create: 1, list: 0, get: 1, update: 2, delete: 1, generate: 1, episodes: 2 },
  posts: { publish: 1, schedule: 1, cancel: 1, calendar: 1 },
  accounts: { list: 0 },
  voices: { list: 0 },
  options: { get: 1, kinds: 0 },
  assets: { create: 1 },
  analytics: { get: 1 },
} as const satisfies ApiIndex<number>;

/**
 * A view of `api` whose every call is made with `priority: 'background'` (other options kept) and, when
 * given, also aborts on `signal` (the poller stopping: a call waiting for budget must not hold up shutdown).
 */
export function backgroundApi(api: VideoApi, signal?: AbortSignal): VideoApi {
  return mapApi(api, OPTIONS_AT, (call, at) => (...args) => {
    const given = args[at] as CallOptions | undefined;
    // Optional arguments before the options may be omitted: fill the gap so the options land in place.
    const padded = [...args, ...Array<undefined>(Math.max(0, at - args.length))];
    const abort =
      signal && given?.signal ? AbortSignal.any([given.signal, signal]) : (signal ?? given?.signal);
    padded[at] = {
      ...given,
      priority: 'background',
      ...(abort ? { signal: abort } : {}),
    } satisfies CallOptions;
    return call(...padded);
  });
}
