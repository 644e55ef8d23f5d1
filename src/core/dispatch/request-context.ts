import type { ApprovedRunners } from '../approvals/runner-port.js';
import { trackRemoteWrites } from '../video-api/remote-writes.js';
import type { VideoApiFactory } from '../video-api/video-api.js';
import { type CommandContext, type CoreDeps, createContext, type RequestInfo } from './context.js';
import { recordWriteDone } from './request-id.js';

/** Opens each request's context and remembers whether it sent a call that changes something remotely. */
export interface RequestContexts {
  /** A request's context whose API clients report their writes (see `remote-writes.ts`). */
  open(req: RequestInfo): CommandContext;
  /** Whether a call that changes something at the video service was sent for this request. */
  sentRemoteWrite(ctx: CommandContext): boolean;
}

export function createRequestContexts(
  deps: CoreDeps,
  approved: ApprovedRunners,
  dispatcher?: CoreDeps['dispatcher'],
): RequestContexts {
  const remoteWrites = new WeakMap<CommandContext, { sent: boolean }>();
  return {
    open(req) {
      const writes = { sent: false };
      const apiFor: VideoApiFactory = (key, o) =>
        trackRemoteWrites(deps.apiFor(key, o), {
          onWrite: () => {
            writes.sent = true;
          },
          onDone: (idempotencyKey) => recordWriteDone(deps, idempotencyKey),
        });
      const ctx = createContext(req, { ...deps, apiFor, approved, ...(dispatcher ? { dispatcher } : {}) });
      remoteWrites.set(ctx, writes);
      return ctx;
    },
    sentRemoteWrite: (ctx) => remoteWrites.get(ctx)?.sent === true,
  };
}
