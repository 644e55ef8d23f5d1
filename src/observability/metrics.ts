/**
 * Prometheus metrics (prom-client), served at `/metrics`: commands, API calls by endpoint and status,
 * responses read tolerantly (drift) or unusable, poll lag, outbox depth; with several replicas, the
 * Discord gateway lease and the watch leases.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { VideoApiClientOptions } from '../api/options.js';

export interface Metrics {
  registry: Registry;
  commands: Counter<'command' | 'outcome'>;
  apiCalls: Counter<'method' | 'route' | 'status'>;
  apiLatency: Histogram<'route'>;
  apiResponseDrift: Counter<'endpoint' | 'field'>;
  apiInvalidResponses: Counter<'endpoint' | 'field'>;
  pollLag: Histogram;
  outboxDepth: Gauge;
  chatDeliveries: Counter<'platform' | 'op' | 'outcome'>;
  gatewayLeader: Gauge;
  gatewayLeaseChanges: Counter<'role'>;
  watchClaims: Counter<'outcome'>;
  watchLeasesLost: Counter;
}

export function createMetrics(options: { defaults?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'reelbot_' });
  return {
    registry,
    commands: new Counter({
      name: 'reelbot_commands_total',
      help: 'Commands, clicks and form submissions by outcome',
      labelNames: ['command', 'outcome'],
      registers: [registry],
    }),
    apiCalls: new Counter({
      name: 'reelbot_api_calls_total',
      help: 'Video API calls by method, route template and HTTP status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    apiLatency: new Histogram({
      name: 'reelbot_api_call_seconds',
      help: 'Video API call latency',
      labelNames: ['route'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    apiResponseDrift: new Counter({
      name: 'reelbot_api_response_drift_total',
      help: 'Video API response values dropped or coerced by the tolerant reader, by endpoint and field path',
      labelNames: ['endpoint', 'field'],
      registers: [registry],
    }),
    apiInvalidResponses: new Counter({
      name: 'reelbot_api_invalid_responses_total',
      help: 'Video API responses failed as invalid_response: a needed field missing or unusable',
      labelNames: ['endpoint', 'field'],
      registers: [registry],
    }),
    pollLag: new Histogram({
      name: 'reelbot_poll_lag_seconds',
      help: 'How late a watch was checked after it became due',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60],
      registers: [registry],
    }),
    outboxDepth: new Gauge({
      name: 'reelbot_outbox_depth',
      help: 'Chat deliveries waiting in the outbox',
      registers: [registry],
    }),
    chatDeliveries: new Counter({
      name: 'reelbot_chat_deliveries_total',
      help: 'Chat deliveries by platform, operation and outcome',
      labelNames: ['platform', 'op', 'outcome'],
      registers: [registry],
    }),
    gatewayLeader: new Gauge({
      name: 'reelbot_gateway_leader',
      help: '1 while this replica holds the Discord gateway session, else 0',
      registers: [registry],
    }),
    gatewayLeaseChanges: new Counter({
      name: 'reelbot_gateway_lease_changes_total',
      help: "Changes of this replica's role on the Discord gateway lease, by the role taken (leader, follower)",
      labelNames: ['role'],
      registers: [registry],
    }),
    watchClaims: new Counter({
      name: 'reelbot_watch_claims_total',
      help: 'Due watches this poller asked to lease: claimed, or taken (leased by another replica first)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    watchLeasesLost: new Counter({
      name: 'reelbot_watch_leases_lost_total',
      help: 'Checks whose watch lease another replica took over meanwhile; their results were dropped',
      registers: [registry],
    }),
  };
}

/** The video API client's hooks, feeding these metrics: pass them to `createVideoApiFactory`. */
export function videoApiHooks(
  metrics: Metrics,
): Required<Pick<VideoApiClientOptions, 'onResponse' | 'onDrift' | 'onInvalid'>> {
  return {
    onResponse: (e) => {
      metrics.apiCalls.inc({ method: e.method, route: e.route, status: String(e.status) });
      metrics.apiLatency.observe({ route: e.route }, e.durationMs / 1000);
    },
    onDrift: (e) => metrics.apiResponseDrift.inc({ endpoint: e.endpoint, field: e.field }, e.count),
    onInvalid: (e) => metrics.apiInvalidResponses.inc({ endpoint: e.endpoint, field: e.field }),
  };
}
