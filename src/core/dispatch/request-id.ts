/**
 * Idempotency keys of user actions (DESIGN §6), in one place.
 *
 * - A form or a confirm card mints a request id when it OPENS and carries it (form state, button value). The
 *   action it leads to takes its key from that id, so a double submit, a repeated click or a retry after a
 *   timeout — however much later — sends the same key and the service charges once. Opening the form again is
 *   a new user action with a new id.
 * - A text command that acts at once has no card to carry an id. Its key comes from who asked what (the body it
 *   sends) and is reused for `TYPED_RETRY_WINDOW_MS` from its first use: the same command typed again within
 *   that window is taken for a retry of the first (a lost answer, a timeout), not a new action. The window
 *   runs from the key's creation, so there is no bucket edge for a retry to fall across.
 *   The replay is said, not silent: once the first one's write went through (`recordWriteDone`, reported by
 *   the tracked API), the command typed again throws `TypedReplay` and the member reads "Already published at
 *   10:02 (same command, 3 minutes ago) — Publish again?" (typed-replay.ts). Its button runs the command again
 *   as a new action (`runsAgain`): a key of its own, the same for a double click of that button.
 * - A button on a long-lived card keys on the clicker, the action and the button's value (which carries the
 *   card's request id, or the card state that makes a click a new action).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CommandContext, CoreDeps, RequestInfo } from './context.js';

/** How long the same typed command by the same user counts as a retry of the first one. */
export const TYPED_RETRY_WINDOW_MS = 10 * 60_000;

/** A new request id: 8 URL-safe characters (48 random bits), short enough for button values and form state. */
export const newRequestId = (): string => randomBytes(6).toString('base64url');

/** Whether an untrusted value (button value, form state) is a request id. */
export const isRequestId = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{8}$/.test(value);

const digest = (payload: unknown): string =>
  createHash('sha256').update(JSON.stringify(payload)).digest('base64url').slice(0, 22);

type KeyContext = Pick<CommandContext, 'req' | 'deps'>;

/** A typed command whose first run (within the window) already went through: nothing is sent again. */
export class TypedReplay extends Error {
  override readonly name = 'TypedReplay';
  constructor(
    /** What the command does (`publish`, `schedule`, `series.create`). */
    readonly action: string,
    /** When the first run's write succeeded. */
    readonly doneAt: number,
  ) {
    super(`${action} already done`);
  }
}

const doneMarker = (idempotencyKey: string): string => `done:${idempotencyKey}`;

/** Notes that a write sent with `idempotencyKey` succeeded (best effort: a replay is then merely silent). */
export async function recordWriteDone(deps: Pick<CoreDeps, 'store' | 'logger'>, idempotencyKey: string) {
  try {
    await deps.store.idempotency.keyFor(doneMarker(idempotencyKey));
  } catch (error) {
    deps.logger.warn({ err: error }, 'could not note a finished write');
  }
}

/** When a write sent with `idempotencyKey` was noted as done (`recordWriteDone`); undefined if not (or unknown). */
export const writeDoneAt = (
  deps: Pick<CoreDeps, 'store'>,
  idempotencyKey: string,
): Promise<number | undefined> => deps.store.idempotency.storedAt(doneMarker(idempotencyKey));

/** Requests run again by "Publish again" (typed-replay.ts), with the id of the button's card. */
const again = new WeakMap<RequestInfo, string>();

/** Marks `req` (a fresh request object) as the deliberate repeat of a typed command: its key is new. */
export function runsAgain(req: RequestInfo, requestId: string): void {
  again.set(req, requestId);
}

/** What one user action is: its name, the request as it will be sent, and the form or card it came from. */
export interface ActionKeyOptions {
  action: string;
  payload: unknown;
  requestId?: string | undefined;
}

/**
 * The key of one user action: `action` names what is done (`publish`, `series.create`), `payload` the request
 * as it will be sent (a changed request is a different action, never a 409 for reusing a key). With the
 * `requestId` of the form or card it came from, the key is that request's for good; without one (a typed
 * command acting at once), it is reused for `TYPED_RETRY_WINDOW_MS`, and `TypedReplay` is thrown when that
 * key's write already went through (the member is told, typed-replay.ts); a command run again by its button
 * (`runsAgain`) gets a key of its own.
 */
export async function actionKey(
  ctx: KeyContext,
  { action, payload, requestId }: ActionKeyOptions,
): Promise<string> {
  const name = `${action}:${ctx.req.user}:${digest(payload)}`;
  const { idempotency } = ctx.deps.store;
  if (requestId) return await idempotency.keyFor(`${name}:request:${requestId}`);
  const repeat = again.get(ctx.req);
  if (repeat) return await idempotency.keyFor(`${name}:again:${repeat}`);
  const key = await idempotency.keyFor(`${name}:typed`, { reuseForMs: TYPED_RETRY_WINDOW_MS });
  const doneAt = await idempotency.storedAt(doneMarker(key));
  if (doneAt !== undefined) throw new TypedReplay(action, doneAt);
  return key;
}

/** The key of a button click: clicker + action + the button's value (its request id or card state). */
export const clickKey = async (ctx: KeyContext, action: string, value: string): Promise<string> =>
  await ctx.deps.store.idempotency.keyFor(`${action}:${ctx.req.user}:${value}`);
