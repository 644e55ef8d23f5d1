import type { UserError } from './context.js';

/** Expected failures as values (STYLE rule 6): parsing and validation return these. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: UserError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = <T = never>(error: UserError): Result<T> => ({ ok: false, error });
