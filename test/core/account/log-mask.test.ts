/**
 * The log mask learns a key by value only once the video service accepted it: whatever a member
 * types into the link form is masked in that request's own log lines and nowhere else, so nobody can erase
 * chosen words from every log by submitting them as a "key"; an unlinked key is forgotten. The real core,
 * the simulator over HTTP, the harness's real logger (its raw lines).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_FORM_ID } from '../../../src/core/commands/account/link.js';
import { say } from '../../../src/core/text/messages.js';
import { demoTeam } from '../../../src/simulator/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

/** A key of no known shape: only the verbatim mask can hide it. */
const OTHER_KEY = 'Dq7vR2mX9kLp4TnW8sYb3HcJ6fGz5Ae';
const WORDS = 'Quarterly-merger-plan';

let h: Harness;
afterEach(() => h.close());

/** Logs one line carrying `text` through the bot's own logger and returns that raw line. */
function logLine(text: string): string {
  h.deps.logger.info({ note: `later: ${text}` }, 'an unrelated line');
  return h.logs.at(-1) ?? '';
}

describe.each(['spec', 'real'] as const)('the log mask on the %s profile', (profile) => {
  it('does not learn a value the service refused: later log lines keep those words', async () => {
    h = await createHarness({ simulator: { profile } });
    const bob = await h.user('bob', { key: null });
    const refused = await h.submit(LINK_FORM_ID, '', { key: WORDS }, bob);
    expect(refused).toEqual({ kind: 'form-errors', errors: { key: say('bad-key') } });
    expect(logLine(WORDS)).toContain(`later: ${WORDS}`);
  });

  it('masks an accepted key from then on, and forgets it once unlinked', async () => {
    h = await createHarness({ simulator: { profile }, teams: [{ ...demoTeam(OTHER_KEY), name: 'Other' }] });
    const bob = await h.user('bob', { key: null });
    expect(logLine(OTHER_KEY)).toContain(OTHER_KEY);
    const linked = await h.submit(LINK_FORM_ID, '', { key: OTHER_KEY }, bob);
    expect(linked.kind).toBe('message');
    const masked = logLine(OTHER_KEY);
    expect(masked).not.toContain(OTHER_KEY);
    expect(masked).toContain('[redacted]');
    await h.run('/reel unlink', bob);
    expect(await h.store.keys.get(bob.user)).toBeUndefined();
    expect(logLine(OTHER_KEY)).toContain(`later: ${OTHER_KEY}`);
  });
});
