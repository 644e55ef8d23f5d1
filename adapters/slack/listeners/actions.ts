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
import type { RequestInfo, Response } from '../../../src/core/index.js';
import { type Bot, decodeAddress, errorCard, runsInDirectMessage, say } from '../../../src/core/index.js';
import { mentionsIn, requestInfo } from '../inbound.js';
import type { Replay, Surface } from '../present.js';
import { decodeActionId, LINK_ACTION, OPEN_FORM_ACTION } from '../render.js';
import type { ListenerContext } from './context.js';
import { directMessageChannel, publishHome } from './publish-home.js';
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
  // A click in the App Home has no channel: it runs in the member's DM with the app, answers there or on the Home.
  const fromHome = !body.channel?.id && (body.view?.type === 'home' || container.type === 'view');
  const channel = fromHome
    ? await directMessageChannel(ctx, { client, team, user: body.user.id })
    : body.channel?.id;
  const surface: Surface = {
    client,
    ...(team ? { team: team } : {}),
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
  const replay = { a: core, v: value, ...(choice !== undefined ? { c: choice } : {}) };
  if (fromHome && (await answeredOnHome(ctx, { req, core, response, client }))) return;
  await show(ctx, {
    response: inDirectMessage(fromHome, response),
    surface: { ...surface, replay },
    what: 'action',
  });
}

/**
 * A click in the App Home whose answer leads the member's refreshed Home (the approvals inbox, an
 * unsubscribe): true once published. Forms open as modals, and the clicks that act in a conversation (a
 * render, a live card: `runsInDirectMessage`) answer in the DM, where their card lands too; so does any
 * answer when the Home cannot be published.
 */
async function answeredOnHome(
  ctx: ListenerContext,
  click: { req: RequestInfo; core: string; response: Response; client: BlockActionArgs['client'] },
): Promise<boolean> {
  const { req, core, response, client } = click;
  if (response.kind === 'form' || response.kind === 'form-errors' || runsInDirectMessage(core)) return false;
  const notice = response.kind === 'none' ? undefined : response.card;
  return await publishHome(ctx, { client, req, user: decodeAddress(req.user).id, notice });
}

/** In the DM with the app a private answer is an ordinary message there: it stays after a reload. */
const inDirectMessage = (fromHome: boolean, response: Response): Response =>
  fromHome && response.kind === 'message' ? { ...response, visibility: 'channel' } : response;

/** An "Open form" click: the pending form with this click's fresh trigger, else the command or click again. */
async function openForm(
  ctx: ListenerContext,
  click: { req: RequestInfo; surface: Surface; value: string },
): Promise<void> {
  const { req, surface } = click;
  const { form, replay } = await ctx.presenter.pendingForm(click.value);
  if (form && (await ctx.presenter.openModal(form, surface))) return;
  if (!replay)
    return show(ctx, { response: errorCard(say('interaction-expired')), surface, what: 'open-form' });
  const response = await runReplay(ctx.bot, req, replay);
  return show(ctx, { response, surface: { ...surface, replay }, what: 'open-form' });
}

async function runReplay(bot: Bot, req: RequestInfo, replay: Replay): Promise<Response> {
  if ('t' in replay) {
    const mentions = mentionsIn(replay.t, decodeAddress(req.user).workspace);
    return await bot.handleText({ ...req, mentions }, replay.t);
  }
  return await bot.handleAction(req, {
    action: replay.a,
    value: replay.v,
    ...(replay.c !== undefined ? { choice: replay.c } : {}),
  });
}
