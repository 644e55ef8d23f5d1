/**
 * The shared key's scope on Slack: through the real Bolt app, a signed request from a workspace
 * not in REELBOT_WORKSPACES gets one private sentence from the first middleware; no listener, no core, no
 * video API call. The team's own workspace is served as before.
 */
import { afterEach, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import { BOB, type SlackWorld, slackWorld, TEAM } from './world.js';

let w: SlackWorld;
afterEach(() => w.close());

const logged = () => w.h.logs.filter((l) => l.includes('not in REELBOT_WORKSPACES'));

it('refuses a command from another workspace privately, before the core, and logs it once', async () => {
  w = await slackWorld({ workspaces: [`slack:${TEAM}`], harness: { proxy: true } });
  for (let i = 0; i < 2; i++) {
    const sent = await w.command('credits', { team: 'T0STRANGER' });
    expect(sent.status).toBe(200);
    const ack = JSON.parse(sent.text) as { response_type: string; text: string };
    expect(ack).toEqual({
      response_type: 'ephemeral',
      text: "This workspace isn't set up for reelbot — ask the team that runs it to add it.",
    });
  }
  expect(w.h.proxy?.calls).toEqual([]);
  expect(logged()).toHaveLength(1);

  const own = await w.command('credits');
  expect(own.status).toBe(200);
  await expect.poll(async () => JSON.stringify(await w.reply(own.responseUrl))).toMatch(/500/);
  expect(w.h.proxy?.calls.length).toBeGreaterThan(0);
});

it('serves every workspace when none is listed for Slack', async () => {
  w = await slackWorld({ workspaces: ['discord:123'], harness: { proxy: true } });
  const sent = await w.command('credits', { team: 'T0STRANGER' });
  expect(sent.text).not.toMatch(/isn't set up for reelbot/);
});

it('a member of another organisation in a shared channel never acts under the shared key unless allowed', async () => {
  w = await slackWorld({ harness: { deploymentKey: DEMO_KEY } });
  // A member of the home workspace without a link uses the shared key…
  const home = await w.command('whoami', { user: BOB });
  await expect.poll(async () => JSON.stringify(await w.reply(home.responseUrl))).toMatch(/You act as/);
  // …one from another organisation, in the same shared channel, does not.
  const guest = await w.command('whoami', { user: 'U09GUEST', userName: 'guest', team: 'T0GUEST' });
  await expect
    .poll(async () => JSON.stringify(await w.reply(guest.responseUrl)))
    .toMatch(/not linked an API key/);
  await w.close();

  // REELBOT_WORKSPACES feeds both the adapter's gate and the core's scope of the shared key (src/main.ts).
  const workspaces = [`slack:${TEAM}`, 'slack:T0GUEST'];
  w = await slackWorld({ harness: { deploymentKey: DEMO_KEY }, workspaces });
  Object.assign(w.h.deps, { deploymentKeyWorkspaces: workspaces });
  const allowed = await w.command('whoami', { user: 'U09GUEST', userName: 'guest', team: 'T0GUEST' });
  const allowedReply = JSON.stringify(await w.reply(allowed.responseUrl));
  expect(allowedReply).toMatch(/You act as/);
});
