/**
 * `home`: the member's dashboard, privately, wherever they are: the cards of Slack's App Home (`home.ts`) —
 * who they act as, credits, recent videos, this week's calendar, their approvals and the workspace's
 * subscriptions — as one answer of several cards.
 */

import { homeCards } from '../../home/home.js';
import { defineCommand } from '../../parse/command-spec.js';
import { messages, type Response } from '../../text/cards.js';
import { md } from '../../text/text.js';

export const homeCommand = defineCommand({
  name: 'home',
  summary: 'Your dashboard: team, credits, videos, this week, approvals',
  options: [],
  examples: ['home'],
  details: md`Only you see it. The same cards as the bot’s Home tab on Slack: who you act as, credits, your recent videos, the next 7 days, approvals waiting for you and what the channels follow.`,
  async run(ctx): Promise<Response> {
    const bot = ctx.deps.dispatcher?.();
    if (!bot) throw new Error('home: the dispatcher is not wired');
    // Its week is the member's: where the platform does not say their zone, ask first (not one card of it).
    await ctx.timeZoneToRead();
    const [first, ...rest] = await homeCards(bot, ctx.deps.store, { req: ctx.req, place: 'conversation' });
    if (!first) throw new Error('home: no cards');
    return messages([first, ...rest], 'ephemeral');
  },
});
