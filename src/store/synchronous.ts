/**
 * The SQLite tables are synchronous (better-sqlite3): each implements the synchronous twin of its part of the
 * asynchronous `Store` port, and `SqliteStore` lifts them (see `liftTable`).
 */
type SyncFn<F> = F extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : F;

/** `Store['cards']` with every method returning its value instead of a promise of it. */
export type Synchronous<T> = { [K in keyof T]: SyncFn<T[K]> };
