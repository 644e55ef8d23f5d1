/**
 * The Slack user groups a user belongs to, for `RequestInfo.memberOf` (`slack-group:S…`), so a channel's
 * approvers and roles can name a group (`<!subteam^S…>`).
 *
 * Slack has no "groups of this user" method, and `usergroups.users.list` answers one group at a time, so
 * one `usergroups.list` with `include_users` per workspace is read and inverted (user → groups). It is a
 * Tier 2 method (about 20 calls a minute): the map is cached for 5 minutes per workspace, and concurrent
 * requests share one call. The price is that a membership change counts within those minutes, not at once.
 *
 * Failures never block a command: the user simply counts in no group (or the last map read, when there is
 * one), and the lookup is tried again a minute later. `membership` says whether the answer is verified: read
 * within the last 5 minutes. A stale map is never trusted to decide an approval (the core refuses instead). Workspaces without user groups (free plan:
 * `plan_upgrade_required`) or installs from before the scope was asked (`missing_scope`: reinstall) are
 * logged once.
 */
import { type Clock, groupReference, type Logger } from '../../src/core/index.js';
import { describeSlackError } from './errors.js';

/** The one Web API method used (a `WebClient` is one). */
export interface UsergroupsClient {
  usergroups: {
    list(args: {
      include_users: boolean;
      include_disabled: boolean;
    }): Promise<{ usergroups?: { id?: string; users?: string[]; date_delete?: number }[] }>;
  };
}

/** How `memberOf` names a Slack user group (the core reads approvers and roles in the same form). */
export const groupRef = (id: string): string => groupReference('slack', 'group', id);

export const GROUPS_TTL_MS = 5 * 60_000;
export const GROUPS_FAILURE_TTL_MS = 60_000;
/** Workspaces kept (multi-workspace installs); the least recently read goes first. */
const MAX_WORKSPACES = 1_000;

interface Entry {
  /** User id → group refs. */
  byUser: Map<string, string[]>;
  until: number;
  /** When `byUser` was read from Slack (a failed refresh keeps the older map and its time). */
  readAt: number;
}

/** A user's groups, and whether they were read from Slack within `GROUPS_TTL_MS`. */
export interface Membership {
  groups: string[];
  verified: boolean;
}

export class SlackGroups {
  readonly #cache = new Map<string, Entry>();
  readonly #loading = new Map<string, Promise<Entry>>();
  readonly #warned = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The group refs of `user` in workspace `team` (empty when it has none, or they cannot be read). */
  async memberOf(client: UsergroupsClient, team: string, user: string): Promise<string[]> {
    return (await this.membership(client, team, user)).groups;
  }

  /** The group refs of `user`, and whether they are fresh enough to decide an approval on. */
  async membership(client: UsergroupsClient, team: string, user: string): Promise<Membership> {
    const cached = this.#cache.get(team);
    const entry = cached && cached.until > this.clock.now() ? cached : await this.#load(client, team, cached);
    return {
      groups: [...(entry.byUser.get(user) ?? [])],
      verified: this.clock.now() - entry.readAt < GROUPS_TTL_MS,
    };
  }

  #load(client: UsergroupsClient, team: string, stale: Entry | undefined): Promise<Entry> {
    const running = this.#loading.get(team);
    if (running) return running;
    const loading = this.#read(client, team, stale).finally(() => this.#loading.delete(team));
    this.#loading.set(team, loading);
    return loading;
  }

  async #read(client: UsergroupsClient, team: string, stale: Entry | undefined): Promise<Entry> {
    let entry: Entry;
    try {
      // Disabled groups are left out: their members no longer act as the group.
      const page = await client.usergroups.list({ include_users: true, include_disabled: false });
      const byUser = new Map<string, string[]>();
      for (const group of page.usergroups ?? []) {
        if (!group.id || (group.date_delete ?? 0) > 0) continue;
        for (const user of group.users ?? []) {
          const refs = byUser.get(user) ?? [];
          refs.push(groupRef(group.id));
          byUser.set(user, refs);
        }
      }
      entry = { byUser, until: this.clock.now() + GROUPS_TTL_MS, readAt: this.clock.now() };
    } catch (error) {
      const { code } = describeSlackError(error);
      this.#warn(team, code);
      // A known map, even a few minutes old, beats counting everybody out while Slack is busy.
      // A free plan has no user groups at all: nobody is in one, which is a verified answer.
      const none = code === 'plan_upgrade_required';
      entry = {
        byUser: none ? new Map() : (stale?.byUser ?? new Map()),
        until: this.clock.now() + GROUPS_FAILURE_TTL_MS,
        readAt: none ? this.clock.now() : (stale?.readAt ?? Number.NEGATIVE_INFINITY),
      };
    }
    this.#cache.delete(team);
    this.#cache.set(team, entry);
    if (this.#cache.size > MAX_WORKSPACES) this.#cache.delete(this.#cache.keys().next().value as string);
    return entry;
  }

  #warn(team: string, code: string): void {
    const permanent = code === 'plan_upgrade_required' || code === 'missing_scope';
    if (permanent && this.#warned.has(`${team}:${code}`)) return;
    if (permanent) this.#warned.add(`${team}:${code}`);
    this.logger.warn(
      {
        team,
        slackError: code,
        ...(code === 'missing_scope' ? { fix: 'reinstall the app to grant usergroups:read' } : {}),
      },
      'usergroups.list failed; approvers and roles named by user group do not count this workspace’s groups for now',
    );
  }
}
