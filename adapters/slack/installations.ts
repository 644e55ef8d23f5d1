/**
 * Multi-workspace OAuth: Bolt's `InstallationStore` over `store.installations` (sealed at rest: an
 * installation holds a bot token), and the bot token for a workspace as the sender needs it.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Logger, Store } from '../../src/core/index.js';
import { forgetWorkspace } from '../../src/core/index.js';

/** `slack-team:T1`, or `slack-enterprise:E1` for an org-wide install. */
export const installationId = (q: {
  isEnterpriseInstall?: boolean | undefined;
  enterpriseId?: string | undefined;
  teamId?: string | undefined;
}) =>
  q.isEnterpriseInstall && q.enterpriseId
    ? `slack-enterprise:${q.enterpriseId}`
    : `slack-team:${q.teamId ?? ''}`;

export function createInstallationStore(store: Store): InstallationStore {
  return {
    async storeInstallation(installation) {
      const id = installationId({
        isEnterpriseInstall: installation.isEnterpriseInstall,
        enterpriseId: installation.enterprise?.id,
        teamId: installation.team?.id,
      });
      await store.installations.put(id, JSON.stringify(installation));
    },
    async fetchInstallation(query: InstallationQuery<boolean>) {
      const data = await store.installations.get(installationId(query));
      if (!data) throw new Error(`No Slack installation for ${installationId(query)}`);
      return JSON.parse(data) as Installation;
    },
    async deleteInstallation(query: InstallationQuery<boolean>) {
      await store.installations.delete(installationId(query));
    },
  };
}

/** Where the sender finds a workspace's bot token. */
export interface BotTokens {
  /** Throws when the workspace has no token (not installed, or uninstalled). */
  forTeam(team: string): Promise<string>;
}

export function createBotTokens(options: { botToken?: string; store?: Store }): BotTokens {
  return {
    async forTeam(team) {
      const data = await options.store?.installations.get(installationId({ teamId: team }));
      const token = data ? (JSON.parse(data) as Installation).bot?.token : undefined;
      const chosen = token ?? options.botToken;
      if (!chosen) throw new Error(`No Slack bot token for workspace ${team}: install the app there`);
      return chosen;
    },
  };
}

/** What an `app_uninstalled` or `tokens_revoked` event says went away. */
export interface SlackRevocation {
  event: 'app_uninstalled' | 'tokens_revoked';
  team: string | undefined;
  enterprise: string | undefined;
  /** An org-wide install: the installation is the enterprise's. */
  enterpriseInstall: boolean;
  /** The bot token is gone (the app uninstalled, or `tokens.bot` names it): the workspace is forgotten. */
  bot: boolean;
  /** Members whose user tokens were revoked (`tokens.oauth`): only those tokens go. */
  users: readonly string[];
}

/**
 * Acts on a revocation. Only the bot token's end (or an uninstall) purges the workspace: linked keys,
 * settings, policy, subscriptions, watches, approvals and the installation, in one store transaction.
 * A revoked user token removes that token from the installation, if it holds one, and nothing else.
 */
export async function forgetRevoked(
  store: Store,
  revoked: SlackRevocation,
  options: { oauth: boolean; logger: Logger; now: number },
): Promise<void> {
  const id = installationId({
    isEnterpriseInstall: revoked.enterpriseInstall,
    enterpriseId: revoked.enterprise,
    teamId: revoked.team,
  });
  const where = { event: revoked.event, team: revoked.team, enterprise: revoked.enterprise };
  if (!revoked.bot) {
    const forgotten = options.oauth ? await forgetUserTokens(store, id, revoked.users) : 0;
    options.logger.info(
      { ...where, users: revoked.users.length, userTokensRemoved: forgotten },
      'Slack user tokens revoked; the installation and workspace data stay',
    );
    return;
  }
  const workspaces = [
    ...(revoked.team ? [`slack:${revoked.team}`] : []),
    // An org-wide install may have addressed things by the enterprise when no workspace was named.
    ...(revoked.enterpriseInstall && revoked.enterprise ? [`slack:${revoked.enterprise}`] : []),
  ];
  const installations = options.oauth && (revoked.team || revoked.enterprise) ? [id] : [];
  const counts = await forgetWorkspace(store, { workspaces, installations, now: options.now });
  options.logger.info({ ...where, ...counts }, 'Slack app removed from a workspace; its data purged');
}

/** Removes the user token from an installation when its installer is one of `users`; how many went (0 or 1). */
async function forgetUserTokens(store: Store, id: string, users: readonly string[]): Promise<number> {
  const data = await store.installations.get(id);
  if (!data) return 0;
  const installation = JSON.parse(data) as Installation;
  const user = installation.user as Partial<Installation['user']> | undefined;
  if (!user?.token || !user.id || !users.includes(user.id)) return 0;
  const { token: _t, refreshToken: _r, expiresAt: _e, ...rest } = user;
  await store.installations.put(id, JSON.stringify({ ...installation, user: rest }));
  return 1;
}
