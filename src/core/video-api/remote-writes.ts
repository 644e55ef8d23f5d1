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

/** The idempotency key a call was sent with (its options, the last argument), if any. */
function keyOf(args: unknown[]): string | undefined {
  const options = args.at(-1);
  if (typeof options !== 'object' || options === null) return undefined;
  const key = (options as { idempotencyKey?: unknown }).idempotencyKey;
  return typeof key === 'string' ? key : undefined;
}

/** What a tracked API reports. */
export interface WriteObserver {
  /** A state-changing call is being sent (before its answer: one that fails may still have reached the service). */
  onWrite(): void;
  /** A state-changing call sent with `idempotencyKey` succeeded (see request-id.ts: an honest replay). */
  onDone?(idempotencyKey: string): Promise<void>;
}

/** A view of `api` that reports each state-changing call to `observer`. Reads pass through untouched. */
export function trackRemoteWrites(api: VideoApi, observer: WriteObserver): VideoApi {
  return mapApi(api, WRITES, (call, writes) =>
    writes
      ? async (...args) => {
          observer.onWrite();
          const result = await call(...args);
          const key = keyOf(args);
          if (key !== undefined) await observer.onDone?.(key);
          return result;
        }
      : call,
  );
}
