/** `/reel …`: the one command (the manifest names it; any name the workspace gave it works the same). */
import type { App } from '@slack/bolt';
import { commandText } from '../command-text.js';
import { slackFileLinks } from '../files.js';
import { requestInfo } from '../inbound.js';
import type { Surface } from '../present.js';
import type { ListenerContext } from './context.js';
import { show } from './show.js';

export function registerCommands(app: App, ctx: ListenerContext): void {
  app.command(/.*/, async ({ command, ack, client, context }) => {
    const receivedAt = ctx.clock.now();
    await ack();
    // Other requests of a burst are acknowledged before this one's work starts (src/http/ack-gate.ts).
    await ctx.acks?.clear();
    const team = context.teamId ?? command.team_id;
    const text = commandText(command.text);
    const surface: Surface = {
      client,
      ...(team ? { team: team } : {}),
      user: command.user_id,
      channel: command.channel_id,
      responseUrl: command.response_url,
      trigger: { id: command.trigger_id, receivedAt },
      replay: { t: text },
    };
    // The text may hold private input (a script): only the command word is logged.
    ctx.log.debug({ team, user: command.user_id, command: text.trim().split(/\s+/)[0] }, 'slash command');
    const req = await requestInfo(ctx, client, {
      team,
      user: command.user_id,
      channel: command.channel_id,
      userName: command.user_name,
      userTeam: command.team_id,
      text,
    });
    // Files shared here are read by their link (`create --from-file`), with the bot token (files.ts).
    const files = slackFileLinks({ client, token: context.botToken, channel: command.channel_id });
    await show(ctx, {
      response: await ctx.bot.handleText({ ...req, files }, text),
      surface,
      what: 'command',
    });
  });
}
