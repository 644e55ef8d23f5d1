/**
 * The shared key's scope on Slack (issue 13): through the real Bolt app, a signed request from a workspace
 * not in REELBOT_WORKSPACES gets one private sentence from the first middleware; no listener, no core, no
 * video API call. The team's own workspace is served as before.
 */
import { afterEach, expect, it } from 'vitest';
import { type SlackWorld, slackWorld, TEAM } from './world.js';

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
