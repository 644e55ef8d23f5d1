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
 * - A button on a long-lived card keys on the clicker, the action and the button's value (which carries the
 *   card's request id, or the card state that makes a click a new action).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CommandContext } from './context.js';

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
 * command acting at once), it is reused for `TYPED_RETRY_WINDOW_MS`.
 */
export async function actionKey(
  ctx: KeyContext,
  { action, payload, requestId }: ActionKeyOptions,
): Promise<string> {
  const name = `${action}:${ctx.req.user}:${digest(payload)}`;
  const { idempotency } = ctx.deps.store;
  if (requestId) return await idempotency.keyFor(`${name}:request:${requestId}`);
  return await idempotency.keyFor(`${name}:typed`, { reuseForMs: TYPED_RETRY_WINDOW_MS });
}

/** The key of a button click: clicker + action + the button's value (its request id or card state). */
export const clickKey = async (ctx: KeyContext, action: string, value: string): Promise<string> =>
  await ctx.deps.store.idempotency.keyFor(`${action}:${ctx.req.user}:${value}`);
