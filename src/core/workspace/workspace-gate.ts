/**
 * Which workspaces the bot serves (`REELBOT_WORKSPACES`: `slack:T…`, `discord:<guild>`, `discord:@me` for
 * DMs). An adapter asks before the core runs and refuses anything else with one polite private sentence,
 * so a stranger who added a public bot to their own server, or DMs it, never reaches the team's key.
 * A platform with no entry in the list is not limited here (the core still keeps the shared key to the
 * listed workspaces).
 */
import { DM_WORKSPACE } from '../ports/address.js';
import type { ChatCapabilities, ChatPlatform, Logger } from '../ports/index.js';

export class WorkspaceGate {
  readonly #allowed: ReadonlySet<string>;
  readonly #limited: ReadonlySet<string>;
  readonly #logged = new Set<string>();
  readonly #logger: Logger | undefined;

  constructor(options: { workspaces?: readonly string[] | undefined; logger?: Logger } = {}) {
    const entries = options.workspaces ?? [];
    this.#allowed = new Set(entries);
    this.#limited = new Set(entries.map((entry) => entry.split(':')[0] ?? ''));
    this.#logger = options.logger;
  }

  /** Whether an interaction from `workspace` (a guild id, a team id, `@me`) may reach the core. */
  allows(platform: ChatPlatform, workspace: string): boolean {
    if (!this.#limited.has(platform)) return true;
    const allowed = this.#allowed.has(`${platform}:${workspace}`);
    if (!allowed) this.#noteRefused(platform, workspace);
    return allowed;
  }

  /** Logged once per workspace: a stranger's server sends many interactions, the operator needs one line. */
  #noteRefused(platform: ChatPlatform, workspace: string): void {
    const key = `${platform}:${workspace}`;
    if (this.#logged.has(key)) return;
    this.#logged.add(key);
    this.#logger?.warn(
      { platform, workspace },
      'interaction from a workspace not in REELBOT_WORKSPACES refused (logged once per workspace)',
    );
  }
}

/**
 * The words a refused member sees, privately: the platform's own name for a workspace ("server" on Discord),
 * or "direct message" for its space of DMs outside every workspace.
 */
export const refusedWhere = (
  capabilities: Pick<ChatCapabilities, 'workspaceNoun' | 'workspacelessDms'>,
  workspace: string,
): string =>
  capabilities.workspacelessDms && workspace === DM_WORKSPACE ? 'direct message' : capabilities.workspaceNoun;
