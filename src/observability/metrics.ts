/**
 * Prometheus metrics (prom-client), served at `/metrics`: commands, API calls by endpoint and status,
 * poll lag, outbox depth.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  commands: Counter<'command' | 'outcome'>;
  apiCalls: Counter<'method' | 'route' | 'status'>;
  apiLatency: Histogram<'route'>;
  pollLag: Histogram;
  outboxDepth: Gauge;
  chatDeliveries: Counter<'platform' | 'op' | 'outcome'>;
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
  };
}
