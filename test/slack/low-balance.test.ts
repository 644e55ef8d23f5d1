/**
 * The low-balance alert on Slack (issue 32, budgets), through the real Bolt app, the real core and the simulator
 * on both profiles: `settings alerts <#C…|budget>` as Slack sends a picked channel reaches the setting (the bot
 * being in it, as `conversations.info` says), and the alert is posted once in that channel when the balance
 * falls below `settings low-balance N`. A channel the bot is not in is refused, and nothing is stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import { blocksText, type SlackWorld, slackWorld, TEAM } from './world.js';

const MINUTE = 60_000;
const BUDGET = 'C0BUDGET';
let w: SlackWorld;
afterEach(() => w.close());

describe.each(['spec', 'real'] as const)('low-balance alert on Slack (%s profile)', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  const answer = async (text: string) =>
    blocksText((await w.reply((await w.command(text, { raw: true })).responseUrl)).blocks as unknown[]);
  const inBudget = () => w.fake.messages.filter((m) => m.channel === BUDGET).map((m) => blocksText(m.blocks));

  it('takes the typed #channel and posts the alert there once', async () => {
    expect(await answer(`settings alerts <#${BUDGET}|budget>`)).toContain(`Budget alerts go to <#${BUDGET}>`);
    expect((await w.h.store.policies.get(`slack:${TEAM}`))?.alerts?.channel).toBe(`slack:${TEAM}:${BUDGET}`);
    const threshold = w.h.sim.sim.balance(DEMO_KEY) - 10;
    expect(await answer(`settings low-balance ${threshold}`)).toContain(`posts one alert to <#${BUDGET}>`);

    // A spend made outside the bot (the dashboard): the next look, within 15 minutes, sees it.
    await w.h.deps
      .apiFor(DEMO_KEY)
      .videos.create(
        { script: 'A short script about budgets, long enough.', voiceId: 'voice_aria_en', name: 'Spend' },
        { idempotencyKey: 'slack-low-balance-spend' },
      );
    for (let i = 0; i < 4; i++) await w.h.advance(5 * MINUTE);
    for (let i = 0; i < 4; i++) await w.h.advance(15 * MINUTE);
    await w.h.flush();
    expect(inBudget()).toHaveLength(1);
    expect(inBudget()[0]).toContain(`Low balance: ${threshold - 10} credits`);
    expect(inBudget()[0]).toContain(`fell below *${threshold} credits*`);
  });

  it('refuses a channel the bot is not in', async () => {
    w.fake.botAbsent.add(BUDGET);
    expect(await answer(`settings alerts <#${BUDGET}>`)).toContain(`I can't post in <#${BUDGET}>`);
    expect((await w.h.store.policies.get(`slack:${TEAM}`))?.alerts).toBeUndefined();
  });
});
