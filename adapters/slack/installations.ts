/**
 * Multi-workspace OAuth: Bolt's `InstallationStore` over `store.installations` (sealed at rest: an
 * installation holds a bot token), and the bot token for a workspace as the sender needs it.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Store } from '../../src/core/ports.js';

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
      store.installations.put(id, JSON.stringify(installation));
    },
    async fetchInstallation(query: InstallationQuery<boolean>) {
      const data = store.installations.get(installationId(query));
      if (!data) throw new Error(`No Slack installation for ${installationId(query)}`);
      return JSON.parse(data) as Installation;
    },
    async deleteInstallation(query: InstallationQuery<boolean>) {
      store.installations.delete(installationId(query));
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
      const data = options.store?.installations.get(installationId({ teamId: team }));
      const token = data ? (JSON.parse(data) as Installation).bot?.token : undefined;
      const chosen = token ?? options.botToken;
      if (!chosen) throw new Error(`No Slack bot token for workspace ${team}: install the app there`);
      return chosen;
    },
  };
}
