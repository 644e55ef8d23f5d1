/**
 * A hostile video API: 20 % of requests answered 500 before anything happens, some responses lost AFTER
 * the service acted (the caller sees a 502 and must rely on its idempotency key), latency spikes, and
 * periodic bursts where every request gets 429 with Retry-After. Every flow must still complete, with
 * nothing charged, published or announced twice, and no API key in the database, the logs or the chat
 * (error paths log the most).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectEveryFlowExactlyOnce, expectNoSecrets, LONG, summary } from './support/checks.js';
import { type RigResult, runFlows } from './support/rig.js';

const FLOWS = LONG ? 40 : 6;
const TIMEOUT_MS = LONG ? 300_000 : 90_000;

describe('hostile video API', () => {
  let result: RigResult | undefined;
  afterAll(() => result?.cleanup());

  it(
    `${FLOWS} flows complete through 5xx, lost responses, latency spikes and 429 bursts`,
    async () => {
      result = await runFlows({
        flows: FLOWS,
        flowsPerKey: 3,
        scale: 60,
        speed: 2,
        seed: 23,
        hostile: {
          serverErrorRate: 0.2,
          lostResponseRate: 0.05,
          spikeRate: 0.05,
          spikeMs: 600,
          burstEveryMs: 4000,
          burstMs: 300,
          burstRetryAfterS: 2,
        },
        staggerMs: 300,
        scheduleLeadMin: 6,
        timeoutMs: TIMEOUT_MS,
      });
      console.info(summary('hostile', result));
      const counts = result.proxy?.counts;
      // The hostility really happened.
      expect(counts?.injected500).toBeGreaterThan(0);
      expect(counts?.lost).toBeGreaterThan(0);
      expect(counts?.burst429).toBeGreaterThan(0);
      expect(counts?.spikes).toBeGreaterThan(0);
      expectEveryFlowExactlyOnce(result);
      expectNoSecrets(result);
    },
    TIMEOUT_MS + 30_000,
  );
});
