import { afterEach, describe, expect, it } from 'vitest';
import { MODULES } from '../../src/core/commands/index.js';
import { createBot } from '../../src/core/dispatch/bot.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../support/harness.js';

describe('the deployment-wide key (VIDEO_API_KEY)', () => {
  let h: Harness;
  afterEach(async () => h.close());

  it('serves members without a link, only in the workspaces it is allowed for', async () => {
    h = await createHarness({ deploymentKey: DEMO_KEY });
    const member = { ...(await h.user('dave', { key: null })) };
    expect(textOf(await h.run('whoami', member))).toMatch(/credits/i);

    // Same bot, but the shared key is limited to another workspace: this member must link their own.
    const scoped = createBot({ ...h.deps, deploymentKeyWorkspaces: ['playground:OTHER'] }, MODULES);
    const reply = await scoped.handleText(member, 'whoami');
    expect(textOf(reply)).toMatch(/not linked an API key/);
    const allowed = createBot({ ...h.deps, deploymentKeyWorkspaces: ['playground:W1'] }, MODULES);
    expect(textOf(await allowed.handleText(member, 'whoami'))).toMatch(/credits/i);
  });
});
