/**
 * Finishes remote writes whose local record is missing (see `remote-effect.ts`): at start-up and on every
 * sweep, each due pending effect is replayed under the request it ran for, with its idempotency key. The
 * service answers its stored response (spec §7: replays for 24 hours), so nothing is charged or posted twice;
 * the same command code then posts the card and starts the watch it would have, and settles the effect.
 */
import {
  type CommandContext,
  type CoreDeps,
  createContext,
  type RequestInfo,
  UserError,
} from '../dispatch/context.js';
import { errorMessage } from '../dispatch/describe-error.js';
import type { PendingEffect } from '../ports/index.js';
import { VideoApiError } from '../video-api/video-api.js';

/** Replays one effect: the same call the command made, then its commit (which settles the effect). */
export type EffectRunner = (ctx: CommandContext, effect: PendingEffect) => Promise<void>;
export type EffectRunners = Readonly<Record<string, EffectRunner>>;

/** The service keeps a response for 24 hours; past that a replay could act again, so it is not tried. */
export const REPLAY_WINDOW_MS = 23 * 3600_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 30 * 60_000;
/** Failures worth another replay later: the service or the path, not the request. */
const TRANSIENT = new Set([
  'rate_limited',
  'internal_error',
  'connection_error',
  'timeout',
  'invalid_response',
]);

export interface ReconcileCounts {
  finished: number;
  dropped: number;
  retrying: number;
}

/** How often remote writes whose local record failed are looked for (also once at start-up). */
const EFFECT_SWEEP_MS = 30_000;

/** The periodic job (a `Runner` sweep) that runs `reconcileEffects`: every process that takes requests runs one. */
export const effectsSweep = (deps: CoreDeps, runners: EffectRunners) => ({
  name: 'effects',
  intervalMs: EFFECT_SWEEP_MS,
  run: () => reconcileEffects(deps, runners),
});

export async function reconcileEffects(
  deps: CoreDeps,
  runners: EffectRunners,
  options: { limit?: number } = {},
): Promise<ReconcileCounts> {
  const counts: ReconcileCounts = { finished: 0, dropped: 0, retrying: 0 };
  const now = deps.clock.now();
  for (const effect of await deps.store.effects.due(now, options.limit ?? 50)) {
    const retryAt = now + Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** effect.attempts);
    // The claim: another replayer (a second replica) that moved it first keeps it.
    if (!(await deps.store.effects.claim(effect.idempotencyKey, { from: effect.nextAt, until: retryAt })))
      continue;
    counts[await replay({ deps, runners }, effect, retryAt)] += 1;
  }
  return counts;
}

async function replay(
  { deps, runners }: { deps: CoreDeps; runners: EffectRunners },
  effect: PendingEffect,
  retryAt: number,
): Promise<keyof ReconcileCounts> {
  const log = deps.logger.child({ component: 'effects', effect: effect.command });
  const runner = runners[effect.command];
  const req = requestOf(effect.request);
  const tooOld = deps.clock.now() - effect.createdAt > REPLAY_WINDOW_MS;
  if (!runner || !req || tooOld) {
    log.error(
      { age: deps.clock.now() - effect.createdAt, attempts: effect.attempts },
      tooOld
        ? 'gave up on a remote write never recorded here: past the replay window; check the service'
        : 'dropped an unreadable pending effect',
    );
    await deps.store.effects.settle(effect.idempotencyKey);
    return 'dropped';
  }
  try {
    await runner(createContext(req, deps), effect);
    // A runner that found the work already recorded returns without a commit: nothing is left to do.
    await deps.store.effects.settle(effect.idempotencyKey);
    log.info(
      { user: req.user, attempts: effect.attempts + 1 },
      'finished a remote write after a failed commit',
    );
    return 'finished';
  } catch (error) {
    if (isFinal(error)) {
      log.warn({ err: error, user: req.user }, 'a pending remote write cannot be replayed; dropped');
      await deps.store.effects.settle(effect.idempotencyKey);
      return 'dropped';
    }
    log.warn({ err: error, retryAt }, 'replaying a pending remote write failed; will try again');
    await deps.store.effects.failed(effect.idempotencyKey, errorMessage(error));
    return 'retrying';
  }
}

/** A stored `approval` argument (the replay of an approved write), when well formed. */
export function approvalOf(args: Record<string, unknown>): { id: string; requesterName: string } | undefined {
  const a = args.approval as { id?: unknown; requesterName?: unknown } | undefined;
  return typeof a?.id === 'string' && a.id !== '' && typeof a.requesterName === 'string'
    ? { id: a.id, requesterName: a.requesterName }
    : undefined;
}

/** The request said no for good (a user mistake, 4xx); a commit failing again is worth another try. */
function isFinal(error: unknown): boolean {
  if (error instanceof UserError) return error.code !== 'effect-unsaved';
  if (error instanceof VideoApiError) return !TRANSIENT.has(error.type);
  return false;
}

/** The stored request, checked: it came from our own store, but a bad row must not act as anyone. */
function requestOf(stored: Record<string, unknown>): RequestInfo | undefined {
  const { platform, user, conversation } = stored;
  if (typeof platform !== 'string' || typeof user !== 'string' || typeof conversation !== 'string')
    return undefined;
  return stored as unknown as RequestInfo;
}
