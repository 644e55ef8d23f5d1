/**
 * Bolt listeners: payload → core request → `present`. Every listener acknowledges first (Slack wants an
 * answer within 3 s) and works after, except a modal submission, whose acknowledgement must carry the
 * inline errors: it waits for the core up to a budget counted from receipt (the `users.info` and
 * `usergroups.list` lookups included), then acknowledges and answers afterwards.
 */
import type {
  App,
  BlockAction,
  ButtonAction,
  Context,
  StaticSelectAction,
  ViewSubmitAction,
  webApi,
} from '@slack/bolt';
import { conversationAddress, messageAddress, userAddress } from '../../src/core/address.js';
import { type Bot, errorCard } from '../../src/core/bot.js';
import type { Card, Response } from '../../src/core/cards.js';
import type { RequestInfo } from '../../src/core/context.js';
import { within } from '../../src/core/deadline.js';
import { homeCards } from '../../src/core/home.js';
import { say } from '../../src/core/messages.js';
import type { Clock, Logger, Store } from '../../src/core/ports.js';
import type { AckGate } from '../../src/http/ack-gate.js';
import { decodeActionId, LINK_ACTION, OPEN_FORM_ACTION } from './blocks.js';
import { commandText } from './command-text.js';
import { refusedBlocks } from './errors.js';
import type { SlackGroups } from './groups.js';
import { homeView, textOnlyHomeView } from './home.js';
import type { SlackRevocation } from './installations.js';
import { decodeMetadata, formToView, inlineErrors, viewValues } from './modal.js';
import type { SlackPeople } from './people.js';
import { type Presenter, type Replay, type Surface, TRIGGER_BUDGET_MS } from './present.js';

export interface ListenerDeps {
  bot: Bot;
  store: Store;
  people: SlackPeople;
  /** User group membership (`usergroups.list`, cached per workspace). */
  groups: SlackGroups;
  presenter: Presenter;
  logger: Logger;
  /** Times the acknowledgement budgets (the presenter's clock too: receipt times are compared across). */
  clock: Clock;
  /** Called when the app is uninstalled or some of its tokens are revoked. */
  onRevoked?: (revoked: SlackRevocation) => void | Promise<void>;
  /** Requests not acknowledged yet (the shared HTTP server's count): work starts once they are. */
  acks?: AckGate;
  /**
   * The workspace the app is installed in, when it is one (a single bot token): a payload from any other team
   * is a member of another organisation in a shared channel (Slack Connect).
   */
  homeTeam?: () => string | undefined;
}

/**
 * Time after receipt a view submission may spend (looking up who submitted, then in the core) before the
 * modal is closed without inline errors.
 */
export const VIEW_ACK_BUDGET_MS = TRIGGER_BUDGET_MS;

export function registerListeners(app: App, deps: ListenerDeps): void {
  const { bot, presenter } = deps;
  const log = deps.logger.child({ component: 'slack' });

  async function requestInfo(
    client: webApi.WebClient,
    where: {
      team: string;
      user: string;
      channel: string;
      userName?: string | undefined;
      messageTs?: string;
      /** The member's own workspace as the payload names it (another organisation's in a Slack Connect channel). */
      userTeam?: string | undefined;
    },
  ): Promise<RequestInfo> {
    // Both are cached; on a cold cache the two Web API calls run side by side.
    const [person, membership] = await Promise.all([
      deps.people.lookup(client, where.team, where.user),
      deps.groups.membership(client, where.team, where.user),
    ]);
    const conversation = conversationAddress('slack', where.team, where.channel);
    const userName = person.name ?? where.userName;
    return {
      platform: 'slack',
      user: userAddress('slack', where.team, where.user),
      conversation,
      ...(userName ? { userName } : {}),
      ...(person.timeZone ? { platformTimeZone: person.timeZone } : {}),
      // A membership Slack could not confirm lately counts for nothing; the core refuses what needs it.
      memberOf: membership.verified ? membership.groups : [],
      ...(membership.verified ? {} : { membershipUnverified: true }),
      ...(person.isAdmin ? { isWorkspaceAdmin: true } : {}),
      ...externalOrg(where),
      ...(where.messageTs ? { message: messageAddress(conversation, where.messageTs) } : {}),
    };
  }

  /** A member whose own workspace is not the one the app serves here: a guest from another organisation. */
  function externalOrg(where: { team: string; userTeam?: string | undefined }): { externalOrg?: string } {
    const own = where.userTeam ?? where.team;
    const home = deps.homeTeam?.() ?? where.team;
    return own === home ? {} : { externalOrg: `slack:${own}` };
  }

  /** Shows a response; a failure to reach Slack is logged (the user sees nothing, so it must be visible). */
  async function show(response: Response, surface: Surface, what: string): Promise<void> {
    try {
      await presenter.present(response, surface);
    } catch (error) {
      log.error({ err: error, what, kind: response.kind }, 'could not show the answer in Slack');
    }
  }

  // `/reel …`: the one command (the manifest names it; any name the workspace gave it works the same).
  app.command(/.*/, async ({ command, ack, client, context }) => {
    const receivedAt = deps.clock.now();
    await ack();
    // Other requests of a burst are acknowledged before this one's work starts (src/http/ack-gate.ts).
    await deps.acks?.clear();
    const team = context.teamId ?? command.team_id;
    const text = commandText(command.text);
    const surface: Surface = {
      client,
      user: command.user_id,
      channel: command.channel_id,
      responseUrl: command.response_url,
      trigger: { id: command.trigger_id, receivedAt },
      replay: { t: text },
    };
    // The text may hold private input (a script): only the command word is logged.
    log.debug({ team, user: command.user_id, command: text.trim().split(/\s+/)[0] }, 'slash command');
    const req = await requestInfo(client, {
      team,
      user: command.user_id,
      channel: command.channel_id,
      userName: command.user_name,
      userTeam: command.team_id,
    });
    await show(await bot.handleText(req, text), surface, 'command');
  });

  app.action<BlockAction>({ type: 'block_actions' }, async ({ ack, body, action, client, context }) => {
    const receivedAt = deps.clock.now();
    await ack();
    await deps.acks?.clear();
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
    const req = await requestInfo(client, {
      team,
      user: body.user.id,
      channel: channel ?? body.user.id,
      userName: body.user.name ?? body.user.username,
      userTeam: body.user.team_id,
      ...(ts && container.is_ephemeral !== true ? { messageTs: ts } : {}),
    });

    if (actionId.startsWith(`${OPEN_FORM_ACTION}|`)) {
      const { form, replay } = presenter.pendingForm(value);
      if (form && (await presenter.openModal(form, surface))) return;
      if (!replay) return show(errorCard(say('interaction-expired')), surface, 'open-form');
      return show(await runReplay(req, replay), { ...surface, replay }, 'open-form');
    }

    const core = decodeActionId(actionId);
    const choice = element.type === 'static_select' ? value : undefined;
    log.debug({ team, user: body.user.id, action: core }, 'block action');
    const response = await bot.handleAction(req, {
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
      if (await publishHome(client, req, body.user.id, notice)) return;
    }
    await show(
      response,
      { ...surface, replay: { a: core, v: value, ...(choice !== undefined ? { c: choice } : {}) } },
      'action',
    );
  });

  app.view<ViewSubmitAction>({ type: 'view_submission' }, async ({ ack, body, view, client, context }) => {
    const receivedAt = deps.clock.now();
    const meta = decodeMetadata(view.private_metadata);
    const team = context.teamId ?? body.team?.id ?? body.user.team_id ?? '';
    if (!meta) {
      await ack();
      return;
    }
    const { origin } = meta;
    const surface: Surface = {
      client,
      user: body.user.id,
      channel: origin.channel,
      ...(origin.responseUrl ? { responseUrl: origin.responseUrl } : {}),
      ...(origin.messageTs ? { message: { ts: origin.messageTs, ephemeral: false } } : {}),
    };
    // The lookups (cached, but a cold cache costs Web API calls) race the budget together with the core.
    const work = requestInfo(client, {
      team,
      user: body.user.id,
      channel: origin.channel,
      userName: body.user.name,
      userTeam: body.user.team_id,
      ...(origin.messageTs ? { messageTs: origin.messageTs } : {}),
    }).then((req) =>
      bot.handleForm(req, {
        formId: view.callback_id,
        state: meta.state,
        values: viewValues(view.state.values as never),
      }),
    );
    const early = await within(deps.clock, VIEW_ACK_BUDGET_MS - (deps.clock.now() - receivedAt), work);
    if (early === undefined) {
      // The core is slow: close the modal now (Slack would show an error) and answer when it is done.
      await ack();
      return show(await work, surface, 'form');
    }
    if (early.kind === 'form-errors') {
      await ack({ response_action: 'errors', errors: inlineErrors(view, early.errors) });
      return;
    }
    if (early.kind === 'form') {
      await ack({ response_action: 'update', view: formToView(early.form, origin, say('form-cancel')) });
      return;
    }
    await ack();
    await show(early, surface, 'form');
  });

  /** Publishes `user`'s App Home (led by `notice`, the answer to a click made there); false if it failed. */
  async function publishHome(
    client: webApi.WebClient,
    req: RequestInfo,
    user: string,
    notice?: Card,
  ): Promise<boolean> {
    try {
      const cards = await homeCards(bot, deps.store, req);
      // As with cards in channels: while Slack refuses the blocks, again without images, then as text.
      const views = [
        () => homeView(cards, notice),
        () => homeView(cards, notice, { images: false }),
        () => textOnlyHomeView(cards, notice),
      ];
      for (const [i, view] of views.entries()) {
        try {
          await client.views.publish({ user_id: user, view: view() });
          return true;
        } catch (error) {
          if (i === views.length - 1 || !refusedBlocks(error)) throw error;
          log.error({ user: req.user, step: i }, 'Slack refused the App Home blocks; sending them simpler');
        }
      }
      return true;
    } catch (error) {
      log.error({ err: error, user: req.user }, 'could not publish the App Home');
      return false;
    }
  }

  app.event('app_home_opened', async ({ event, client, context, body }) => {
    if (event.tab !== 'home') return;
    const team = context.teamId ?? (body as { team_id?: string }).team_id ?? '';
    const req = await requestInfo(client, { team, user: event.user, channel: event.channel });
    await publishHome(client, req, event.user);
  });

  // Slack names revoked tokens by their users' ids: `bot` lists the bot user (the installation is dead),
  // `oauth` members who revoked their own token (the bot still works there).
  app.event('app_uninstalled', async ({ context, body }) => {
    await deps.onRevoked?.({
      ...revokedWhere(context, body),
      event: 'app_uninstalled',
      bot: true,
      users: [],
    });
  });
  app.event('tokens_revoked', async ({ event, context, body }) => {
    const tokens = (event as { tokens?: { oauth?: unknown; bot?: unknown } }).tokens;
    const ids = (list: unknown) => (Array.isArray(list) ? list.filter((u) => typeof u === 'string') : []);
    await deps.onRevoked?.({
      ...revokedWhere(context, body),
      event: 'tokens_revoked',
      bot: ids(tokens?.bot).length > 0,
      users: ids(tokens?.oauth),
    });
  });

  async function runReplay(req: RequestInfo, replay: Replay): Promise<Response> {
    if ('t' in replay) return bot.handleText(req, replay.t);
    return bot.handleAction(req, {
      action: replay.a,
      value: replay.v,
      ...(replay.c !== undefined ? { choice: replay.c } : {}),
    });
  }
}

/** The workspace (and enterprise, for an org-wide install) an uninstall or revocation is about. */
function revokedWhere(
  context: Context,
  body: unknown,
): Pick<SlackRevocation, 'team' | 'enterprise' | 'enterpriseInstall'> {
  return {
    team: context.teamId ?? (body as { team_id?: string }).team_id,
    enterprise: context.enterpriseId,
    enterpriseInstall: context.isEnterpriseInstall === true,
  };
}
