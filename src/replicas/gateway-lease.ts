/**
 * The Discord gateway's leadership among replicas on PostgreSQL (DESIGN §9): the leader lease named
 * 'discord-gateway' on the store's pool, reported to the metrics. Takeover after a holder dies takes at most
 * `ttlMs + ttlMs / 3` (20 s by default, within the 30 s promised).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { GatewayLeadership } from '../../adapters/discord/gateway-session.js';
import type { Clock, Logger } from '../core/ports/index.js';
import { LeaderLease } from '../store/postgres/leader-lease.js';

export const GATEWAY_LEASE = 'discord-gateway';

export interface GatewayLeaseOptions {
  pool: pg.Pool;
  replica: string;
  clock: Clock;
  logger: Logger;
  /** Lease TTL (default the lease's 15 s); tests shorten it. */
  ttlMs?: number;
  /** Called on each change of role (metrics). */
  onChange?: (leading: boolean) => void;
}

export interface GatewayLease extends GatewayLeadership {
  /** Whether this replica leads now. */
  isLeader(): boolean;
}

export function gatewayLease(options: GatewayLeaseOptions): GatewayLease {
  let listener: (leading: boolean) => void = () => {};
  const lease = new LeaderLease({
    pool: options.pool,
    name: GATEWAY_LEASE,
    // Unique per process even if two replicas are given one REELBOT_REPLICA_ID by mistake: a shared holder
    // would let both believe they lead.
    holder: `${options.replica}:${randomBytes(3).toString('hex')}`,
    ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
    clock: options.clock,
    logger: options.logger,
    onChange: (role) => {
      options.onChange?.(role === 'leader');
      listener(role === 'leader');
    },
  });
  return {
    isLeader: () => lease.isLeader(),
    async start(onChange) {
      listener = onChange;
      await lease.start();
    },
    stop: () => lease.stop(),
  };
}
