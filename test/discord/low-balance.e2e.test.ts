/**
 * The low-balance alert on Discord (issue 32, budgets), through the real discord.js adapter, the real core and
 * the simulator on both profiles: `settings alerts <#id>` as Discord writes a picked channel reaches the
 * setting (the bot may view it and send there, by its roles and the channel's overwrites), and the alert is
 * posted once in that channel when the balance falls below `settings low-balance N`. A channel whose overwrites
 * deny the bot Send Messages, or one of another server, is refused, and nothing is stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import { discordWorld, IDS, textOfMessage, type World } from './world.js';

const MINUTE = 60_000;
const BUDGET = '1300000000000000777';
let w: World;
afterEach(() => w.close());

describe.each(['spec', 'real'] as const)('low-balance alert on Discord (%s profile)', (profile) => {
  const settings = async (key: string, value: string) =>
    textOfMessage(w.answer(await w.slash('channel settings', { key, value })));
  const policy = async () => (await w.h.store.policies.get(`discord:${IDS.guild}`))?.alerts;

  it('takes the typed #channel and posts the alert there once', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    expect(await settings('alerts', `<#${BUDGET}>`)).toContain(`Budget alerts go to <#${BUDGET}>`);
    expect((await policy())?.channel).toBe(`discord:${IDS.guild}:${BUDGET}`);
    const threshold = w.h.sim.sim.balance(DEMO_KEY) - 10;
    expect(await settings('low-balance', String(threshold))).toContain(`posts one alert to <#${BUDGET}>`);

    await w.h.deps
      .apiFor(DEMO_KEY)
      .videos.create(
        { script: 'A short script about budgets, long enough.', voiceId: 'voice_aria_en', name: 'Spend' },
        { idempotencyKey: 'discord-low-balance-spend' },
      );
    for (let i = 0; i < 8; i++) await w.h.advance(15 * MINUTE);
    await w.h.flush();
    const posted = w.fake.channelMessages(BUDGET).map(textOfMessage);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain(`Low balance: ${threshold - 10} credits`);
    expect(posted[0]).toContain(`fell below **${threshold} credits**`);
  });

  it('refuses a channel the bot may not send in, and one of another server', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    // @everyone (the guild's id) is denied Send Messages there.
    w.fake.channelOverwrites.set(BUDGET, [{ id: IDS.guild, type: 0, allow: '0', deny: String(1 << 11) }]);
    expect(await settings('alerts', `<#${BUDGET}>`)).toContain(`I can't post in <#${BUDGET}>`);
    w.fake.foreignChannels.set('1300000000000000888', '1300000000000000999');
    expect(await settings('alerts', '<#1300000000000000888>')).toContain(
      'That channel belongs to another server: budget alerts go to a channel of this one.',
    );
    expect(await policy()).toBeUndefined();
  });
});
