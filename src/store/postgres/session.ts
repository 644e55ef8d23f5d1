/**
 * How every connection reelbot opens to PostgreSQL is set up: the store's pool and the replica
 * registry's alike, so no session of a stopped replica holds others up.
 */
import type pg from 'pg';

export const DEFAULT_DATABASE_TIMEOUT_MS = 4_000;

/**
 * What every session is told at connect, from one timeout T:
 * - `lock_timeout` T: a statement waits for another transaction's row lock at most T, then fails (55P03) and
 *   its transaction runs again;
 * - `idle_in_transaction_session_timeout` T/2: a transaction whose replica stopped sending (SIGSTOP, a paused
 *   VM, a partition) is ended by the server, and its locks released, before anyone's lock wait runs out;
 * - `statement_timeout` 3T: no statement holds its locks for long;
 * - TCP keepalive on the client: a replica notices a dead connection in seconds, not the kernel's two hours.
 */
export function sessionSettings(timeoutMs: number): pg.PoolConfig {
  const t = Math.max(100, Math.trunc(timeoutMs));
  return {
    lock_timeout: t,
    idle_in_transaction_session_timeout: Math.trunc(t / 2),
    statement_timeout: 3 * t,
    keepAlive: true,
    keepAliveInitialDelayMillis: Math.min(10_000, t),
  };
}
