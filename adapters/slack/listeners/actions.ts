/**
 * Clicks (`block_actions`): a button or a select in a message, an ephemeral answer or the App Home. An "Open
 * form" button opens its pending form with the click's fresh trigger, or runs the command or click again.
 */
import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  StaticSelectAction,
} from '@slack/bolt';
import { decodeAddress } from '../../../src/core/address.js';
import { type Bot, errorCard } from '../../../src/core/bot.js';
import type { Response } from '../../../src/core/cards.js';
import type { RequestInfo } from '../../../src/core/context.js';
import { say } from '../../../src/core/messages.js';
import { mentionsIn, requestInfo } from '../inbound.js';
import type { Replay, Surface } from '../present.js';
import { decodeActionId, LINK_ACTION, OPEN_FORM_ACTION } from '../render.js';
import type { ListenerContext } from './context.js';
import { publishHome } from './publish-home.js';
import { show } from './show.js';

type BlockActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export function registerActions(app: App, ctx: ListenerContext): void {
  app.action<BlockAction>({ type: 'block_actions' }, (args) => onBlockAction(ctx, args));
}

async function onBlockAction(ctx: ListenerContext, args: BlockActionArgs): Promise<void> {
  const { ack, body, action, client, context } = args;
  const receivedAt = ctx.clock.now();
  await ack();
  await ctx.acks?.clear();
  const element = action as ButtonAction | StaticSelectAction | { action_id: string; type: string };
  const actionId = element.action_id;
  if (actionId.startsWith(`${LINK_ACTION}|`)) return; // A URL button: Slack opened the link.
  const team = context.teamId ?? body.team?.id ?? body.user.team_id ?? '';
  const container = body.container as { type?: string; is_ephemeral?: boolean; message_ts?: string };
  const ts = body.message?.ts ?? container.message_ts;
  const channel = body.channel?.id;
  const surface: Surface = {
    client,
    user: body.user.id,
    ...(channel ? { channel } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
    trigger: { id: body.trigger_id, receivedAt },
    ...(ts ? { message: { ts, ephemeral: container.is_ephemeral === true } } : {}),
  };
  const value =
    element.type === 'static_select'
      ? ((element as StaticSelectAction).selected_option?.value ?? '')
      : ((element as ButtonAction).value ?? '');
  const req = await requestInfo(ctx, client, {
    team,
    user: body.user.id,
    channel: channel ?? body.user.id,
    userName: body.user.name ?? body.user.username,
    userTeam: body.user.team_id,
    ...(ts && container.is_ephemeral !== true ? { messageTs: ts } : {}),
  });

  if (actionId.startsWith(`${OPEN_FORM_ACTION}|`)) return openForm(ctx, { req, surface, value });

  const core = decodeActionId(actionId);
  const choice = element.type === 'static_select' ? value : undefined;
  ctx.log.debug({ team, user: body.user.id, action: core }, 'block action');
  const response = await ctx.bot.handleAction(req, {
    action: core,
    value,
    ...(choice !== undefined ? { choice } : {}),
  });
  // A click in the App Home (the approvals inbox): no channel, message or response_url to answer in. The
  // answer leads the member's refreshed Home; a form still opens as a modal; if the Home cannot be
  // published, the answer goes to the member's DM with the app (the presenter's fallback).
  const fromHome = !channel && (body.view?.type === 'home' || container.type === 'view');
  if (fromHome && response.kind !== 'form' && response.kind !== 'form-errors') {
    const notice = response.kind === 'none' ? undefined : response.card;
    if (await publishHome(ctx, { client, req, user: body.user.id, notice })) return;
  }
  const replay = { a: core, v: value, ...(choice !== undefined ? { c: choice } : {}) };
  await show(ctx, { response, surface: { ...surface, replay }, what: 'action' });
}

/** An "Open form" click: the pending form with this click's fresh trigger, else the command or click again. */
async function openForm(
  ctx: ListenerContext,
  click: { req: RequestInfo; surface: Surface; value: string },
): Promise<void> {
  const { req, surface } = click;
  const { form, replay } = ctx.presenter.pendingForm(click.value);
  if (form && (await ctx.presenter.openModal(form, surface))) return;
  if (!replay)
    return show(ctx, { response: errorCard(say('interaction-expired')), surface, what: 'open-form' });
  const response = await runReplay(ctx.bot, req, replay);
  return show(ctx, { response, surface: { ...surface, replay }, what: 'open-form' });
}

async function runReplay(bot: Bot, req: RequestInfo, replay: Replay): Promise<Response> {
  if ('t' in replay) {
    const mentions = mentionsIn(replay.t, decodeAddress(req.user).workspace);
    return bot.handleText({ ...req, mentions }, replay.t);
  }
  return bot.handleAction(req, {
    action: replay.a,
    value: replay.v,
    ...(replay.c !== undefined ? { choice: replay.c } : {}),
  });
}
