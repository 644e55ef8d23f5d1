/**
 * Which video API calls change something at the service. A request that has sent one must not be run again
 * on a local failure (it would act twice, or at least charge the member's attention twice); one that only
 * read may be.
 */
import { type ApiIndex, mapApi } from './api-methods.js';
import type { VideoApi } from './video-api.js';

/** True for the calls that change state (POST, PATCH, DELETE). Typed: a new endpoint must be listed. */
const WRITES = {
  me: { get: false },
  credits: { get: false },
  videos: {
    create: true,
    caption: true,
    list: false,
    get: false,
    update: true,
    delete: true,
    selectThumbnail: true,
    status: false,
    render: true,
  },
  renders: { get: false },
  series: {
    create: true,
    list: false,
    get: false,
    update: true,
    delete: true,
    generate: true,
    episodes: false,
  },
  posts: { publish: true, schedule: true, cancel: true, calendar: false },
  accounts: { list: false },
  voices: { list: false },
  options: { get: false, kinds: false },
  assets: { create: true },
  analytics: { get: false },
} as const satisfies ApiIndex<boolean>;

/**
 * A view of `api` that calls `onWrite` as each state-changing call is sent (before its answer: a call that
 * fails may still have reached the service). Reads pass through untouched.
 */
export function trackRemoteWrites(api: VideoApi, onWrite: () => void): VideoApi {
  return mapApi(api, WRITES, (call, writes) =>
    writes
      ? (...args) => {
          onWrite();
          return call(...args);
        }
      : call,
  );
}
