/**
 * A remote write and the local commit that records it, as one pending effect. The effect is stored
 * before the request; the commit deletes it in its own transaction. When the commit fails after the service
 * took the write (disk full, a locked database), the member hears the truth — it may have gone through, and
 * pressing again will not charge or post twice — and `reconcileEffects` finishes it later with the same
 * idempotency key, so the service replays its stored answer instead of acting twice.
 */
import { randomUUID } from 'node:crypto';
import { type CommandContext, userError } from '../dispatch/context.js';

/** How long a request may still be in flight (its retries included) before a replay may try its effect. */
export const EFFECT_GRACE_MS = 2 * 60_000;

/** The remote writes that can be replayed; each command group registers how (`CommandModule.effects`). */
export type EffectCommand = 'create' | 'publish' | 'schedule' | 'series.generate';

export interface RemoteEffect {
  command: EffectCommand;
  /** What a replay needs besides the request: the same shape approvals store. */
  args: Record<string, unknown>;
  idempotencyKey: string;
  /** For the member, when the commit fails: "the post to YouTube", "the new video". */
  what: string;
}

export interface EffectSteps<R, T> {
  /** The remote write, with `idempotencyKey`. */
  send(): Promise<R>;
  /** The local record of its result, run in the transaction that settles the effect. */
  commit(result: R): Promise<T>;
}

/** Runs `send` then `commit` as one pending effect (see the file comment). */
export async function remoteEffect<R, T>(
  ctx: CommandContext,
  effect: RemoteEffect,
  steps: EffectSteps<R, T>,
): Promise<T> {
  const { store } = ctx.deps;
  await store.effects.begin({
    idempotencyKey: effect.idempotencyKey,
    command: effect.command,
    args: effect.args,
    request: { ...ctx.req },
    nextAt: ctx.now() + EFFECT_GRACE_MS,
  });
  let result: R;
  try {
    result = await steps.send();
  } catch (error) {
    // The service answered (or could not be reached): the member hears which, and nothing is left to replay.
    await forget(ctx, effect.idempotencyKey);
    throw error;
  }
  try {
    return await store.transaction(async () => {
      const committed = await steps.commit(result);
      await store.effects.settle(effect.idempotencyKey);
      return committed;
    });
  } catch (error) {
    const ref = randomUUID().slice(0, 8);
    ctx.deps.logger.error(
      { ref, err: error, effect: effect.command, user: ctx.req.user },
      'the video service took a write but recording it here failed; it will be replayed',
    );
    throw userError('effect-unsaved', { ref, what: effect.what });
  }
}

async function forget(ctx: CommandContext, idempotencyKey: string): Promise<void> {
  try {
    await ctx.deps.store.effects.settle(idempotencyKey);
  } catch (error) {
    // The database failed too: the row stays and a replay re-sends the same request later.
    ctx.deps.logger.warn({ err: error }, 'could not clear a pending effect after its request failed');
  }
}
