/**
 * "Make a video from this": the message shortcut (manifest `callback_id: reel_make_video`) opens
 * the create form with the message's text as the script, and the text of its attached .txt/.md file if any
 * (read with the bot token, checked like an upload; a file that cannot be used is left out and said).
 */
import type { App, MessageShortcut } from '@slack/bolt';
import {
  CREATE_FROM_MESSAGE_ACTION,
  SCRIPT_MAX,
  TEXT_FILE_TYPES,
  UserError,
} from '../../../src/core/index.js';
import { commandText } from '../command-text.js';
import { readSlackFile, type SlackFile, slackFileLinks } from '../files.js';
import { requestInfo } from '../inbound.js';
import type { Surface } from '../present.js';
import type { ListenerContext } from './context.js';
import { show } from './show.js';

export const MAKE_VIDEO_SHORTCUT = 'reel_make_video';

export function registerShortcuts(app: App, ctx: ListenerContext): void {
  app.shortcut<MessageShortcut>(
    { type: 'message_action', callback_id: MAKE_VIDEO_SHORTCUT },
    async ({ shortcut, ack, client, context }) => {
      const receivedAt = ctx.clock.now();
      await ack();
      await ctx.acks?.clear();
      const team = context.teamId ?? shortcut.team?.id ?? '';
      const channel = shortcut.channel.id;
      const surface: Surface = {
        client,
        ...(team ? { team: team } : {}),
        user: shortcut.user.id,
        channel,
        responseUrl: shortcut.response_url,
        trigger: { id: shortcut.trigger_id, receivedAt },
      };
      const req = await requestInfo(ctx, client, {
        team,
        user: shortcut.user.id,
        channel,
        userName: shortcut.user.name,
        userTeam: shortcut.user.team_id,
      });
      const access = { client, token: context.botToken };
      const files = ((shortcut.message as { files?: SlackFile[] }).files ?? []).filter(isTextFile);
      const texts = [commandText(String(shortcut.message.text ?? '')).trim()];
      for (const file of files.slice(0, 1)) {
        try {
          texts.push(
            (await readSlackFile(file, access, { accept: TEXT_FILE_TYPES, maxLength: SCRIPT_MAX })).text,
          );
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          ctx.log.debug({ code: error.code }, 'message shortcut: attached file left out');
        }
      }
      const value = texts.filter((t) => t.trim() !== '').join('\n\n');
      const response = await ctx.bot.handleAction(
        { ...req, files: slackFileLinks({ ...access, channel }) },
        { action: CREATE_FROM_MESSAGE_ACTION, value },
      );
      await show(ctx, { response, surface, what: 'shortcut' });
    },
  );
}

/** A message's file the shortcut reads: a .txt or .md by its name. */
const isTextFile = (file: SlackFile): boolean =>
  TEXT_FILE_TYPES.some((t) => (file.name ?? '').toLowerCase().endsWith(`.${t}`));
