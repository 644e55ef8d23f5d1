import type { IncomingMessage } from 'node:http';
import type { Response as CoreResponse } from '../../../src/core/index.js';
import { drawCharts } from '../html/data.js';
import {
  type ActionBody,
  actionBody,
  COMPOSER_MAX_LENGTH,
  type CommandBody,
  commandBody,
  type FormBody,
  formBody,
  readJson,
} from '../inbound.js';
import type { ClientReply, RoutesDeps } from '../routes.js';
import type { Members } from './members.js';
import { showResponse } from './show-response.js';

export type PostRoute = (req: IncomingMessage) => Promise<ClientReply>;

/** The three POSTs that become core requests: command text, a click, a form submission. */
export function createPostRoutes(
  { bot, room, logger }: Pick<RoutesDeps, 'bot' | 'room' | 'logger'>,
  members: Members,
): Record<string, PostRoute> {
  /** Shows the response once its charts are drawn (html/data.ts). */
  const show = async (
    response: CoreResponse,
    at: { user: string; channel: string; messageId?: string; cardIndex?: number | undefined },
  ) => {
    if (response.kind === 'message' || response.kind === 'update') {
      await drawCharts([response.card, ...(response.kind === 'message' ? (response.more ?? []) : [])]);
    }
    return showResponse(room, response, at);
  };

  async function command(req: IncomingMessage): Promise<ClientReply> {
    const body: CommandBody = await readJson(req, commandBody);
    members.check(body);
    // The composer takes the text exactly as typed on Slack; the `/reel` prefix is optional.
    const text = body.text
      .trim()
      .replace(/^\/reel(?=\s|$)/i, '')
      .trim();
    if ([...text].length > COMPOSER_MAX_LENGTH) {
      // Too long to echo or run: the core says the field's limit and the way round (the form, a file).
      const response = await bot.handleTooLong(members.requestInfo(body), { text, cap: COMPOSER_MAX_LENGTH });
      return await show(response, body);
    }
    const echo = room.echoCommand(body.channel, body.user, text);
    // The text may carry private input, so only the command word is logged.
    logger.debug(
      { user: body.user, channel: body.channel, command: text.split(/\s+/)[0] },
      'playground command',
    );
    const response = await bot.handleText(members.requestInfo(body), text);
    const reply = await show(response, body);
    return { ...reply, messages: [room.view(echo), ...(reply.messages ?? [])] };
  }

  async function action(req: IncomingMessage): Promise<ClientReply> {
    const body: ActionBody = await readJson(req, actionBody);
    members.check(body);
    logger.debug({ user: body.user, channel: body.channel, action: body.action }, 'playground action');
    const response = await bot.handleAction(members.requestInfo(body, body.messageId), {
      action: body.action,
      value: body.value,
      ...(body.choice !== undefined ? { choice: body.choice } : {}),
    });
    return await show(response, body);
  }

  async function form(req: IncomingMessage): Promise<ClientReply> {
    const body: FormBody = await readJson(req, formBody);
    members.check(body);
    logger.debug({ user: body.user, channel: body.channel, formId: body.formId }, 'playground form');
    const response = await bot.handleForm(members.requestInfo(body, body.messageId), {
      formId: body.formId,
      state: body.state,
      values: body.values,
    });
    return await show(response, {
      user: body.user,
      channel: body.channel,
      ...(body.messageId ? { messageId: body.messageId } : {}),
    });
  }

  return {
    '/playground/command': command,
    '/playground/action': action,
    '/playground/form': form,
  };
}
