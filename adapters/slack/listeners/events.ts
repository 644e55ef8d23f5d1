/** Events: the App Home opened, and the app uninstalled or some of its tokens revoked. */
import type { App, Context } from '@slack/bolt';
import { homeOpened } from '../../../src/core/index.js';
import { requestInfo } from '../inbound.js';
import type { SlackRevocation } from '../installations.js';
import type { ListenerContext } from './context.js';
import { publishHome } from './publish-home.js';

export function registerEvents(app: App, ctx: ListenerContext): void {
  app.event('app_home_opened', async ({ event, client, context, body }) => {
    if (event.tab !== 'home') return;
    const team = context.teamId ?? (body as { team_id?: string }).team_id ?? '';
    const req = await requestInfo(ctx, client, { team, user: event.user, channel: event.channel });
    // Remembered: its changes refresh it (through the outbox), its clicks answer in this DM channel.
    if (event.channel) await homeOpened(ctx.store, { user: req.user, conversation: req.conversation });
    await publishHome(ctx, { client, req, user: event.user });
  });

  // Slack names revoked tokens by their users' ids: `bot` lists the bot user (the installation is dead),
  // `oauth` members who revoked their own token (the bot still works there).
  app.event('app_uninstalled', async ({ context, body }) => {
    await ctx.onRevoked?.({
      ...revokedWhere(context, body),
      event: 'app_uninstalled',
      bot: true,
      users: [],
    });
  });
  app.event('tokens_revoked', async ({ event, context, body }) => {
    const tokens = (event as { tokens?: { oauth?: unknown; bot?: unknown } }).tokens;
    const ids = (list: unknown) => (Array.isArray(list) ? list.filter((u) => typeof u === 'string') : []);
    await ctx.onRevoked?.({
      ...revokedWhere(context, body),
      event: 'tokens_revoked',
      bot: ids(tokens?.bot).length > 0,
      users: ids(tokens?.oauth),
    });
  });
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
