/**
 * A flaky chat platform: the bot's recording ChatSender fails at random with 429 + Retry-After and with
 * 5xx. The outbox must deliver every notification anyway (nothing lost: no failed or pending rows at the
 * end) and never twice; no API key reaches the database, the logs or the chat. In the long form the bot
 * is also SIGKILLed now and then, so retries straddle restarts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectEveryFlowExactlyOnce, expectNoSecrets, LONG, summary } from './support/checks.js';
import { type RigResult, runFlows } from './support/rig.js';

const FLOWS = LONG ? 40 : 6;
const TIMEOUT_MS = LONG ? 300_000 : 90_000;

describe('chat platform faults', () => {
  let result: RigResult | undefined;
  afterAll(() => result?.cleanup());

  it(
    `${FLOWS} flows: every notification delivered once through random 429s and 5xx`,
    async () => {
      result = await runFlows({
        flows: FLOWS,
        flowsPerKey: 3,
        scale: 60,
        speed: 2,
        seed: 37,
        chatFaults: { rate429: 0.1, rate5xx: 0.15 },
        ...(LONG ? { kills: { minMs: 4000, maxMs: 9000 } } : {}),
        staggerMs: 300,
        scheduleLeadMin: 5,
        timeoutMs: TIMEOUT_MS,
      });
      console.info(summary('chat faults', result));
      // Faults were really injected, of both kinds.
      const faults = result.attempts.filter((a) => a.op === 'fault');
      expect(faults.filter((f) => f.title === '429').length).toBeGreaterThan(0);
      expect(faults.filter((f) => f.title === '503').length).toBeGreaterThan(0);
      expectEveryFlowExactlyOnce(result);
      expectNoSecrets(result);
    },
    TIMEOUT_MS + 30_000,
  );
});
