/** Benchmark 1, ack latency (Slack slash commands, Discord HTTP interactions): being written. */
import type { BenchResult } from '../lib/result.js';

export async function ackLatency(_o: { requests: number; log(line: string): void }): Promise<BenchResult> {
  return {
    name: 'ack-latency',
    title: 'Ack latency: Slack slash commands and Discord interactions',
    measured: false,
    baseline: 'bare Bolt / bare Ed25519 interactions handler',
    metrics: [],
    notes: ['Not measured yet.'],
    durationMs: 0,
  };
}
