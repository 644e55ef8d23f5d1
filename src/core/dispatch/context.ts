/**
 * The environment a command, click or form handler runs in: who asked, where, and the core's dependencies.
 */

import type { ApprovedRunners } from '../approvals/runner-port.js';
import { effectiveSettings } from '../approvals/workspace-policy.js';
import { workspaceOf } from '../ports/address.js';
import type {
  ChannelAccess,
  ChannelSettings,
  ChatCapabilities,
  ChatPlatform,
  Clock,
  ConversationAddress,
  ConversationMembership,
  FileLinks,
  Logger,
  LogMask,
  MessageAddress,
  Store,
  UserAddress,
} from '../ports/index.js';
import { StoredKeyUnreadableError } from '../ports/index.js';
import { TimeZoneNeeded } from '../settings/time-zone.js';
import type { MessageCode } from '../text/messages.js';
import { type CatalogCache, keyId } from '../video-api/catalog-cache.js';
import type { VideoApi, VideoApiFactory } from '../video-api/video-api.js';
import type { Bot } from './bot.js';

/** Who asked, and where. Built by the adapter from the platform payload. */
export interface RequestInfo {
  platform: ChatPlatform;
  user: UserAddress;
  /** Display name, for cards ("requested by …"). */
  userName?: string;
  conversation: ConversationAddress;
  /** The user's zone as the platform reports it (Slack `users.info`); `tz` overrides it. */
  platformTimeZone?: string;
  /**
   * The platform's `ChatCapabilities.sharesTimeZones`; `false` (Discord): a member with no zone of their own
   * (nor a channel default) is asked for one before a command reads times in it (`timeZoneToRead`).
   */
  sharesTimeZones?: boolean;
  /**
   * The platform's capabilities (`ChatAdapter.capabilities`), set by the adapter on every request: what the
   * core words and decides by (a workspace's and a group's name, DMs outside workspaces) instead of asking
   * which platform it is. Absent (a request built by hand): a platform with none of those.
   */
  capabilities?: ChatCapabilities;
  /** Groups/roles the user holds (`groupReference`s the adapter built), for approvers and roles. */
  memberOf?: string[];
  /**
   * The platform could not tell which groups/roles the user holds right now (lookup failing, only a stale
   * answer): `memberOf` is then empty, and a decision that needs a group is refused, never guessed.
   */
  membershipUnverified?: boolean;
  /**
   * A workspace admin by the platform's own account (Slack admin/owner, Discord Manage Server, demo Alice). For
   * a guest of another organisation (`externalOrg`) it is their own organisation's flag and counts for nothing.
   */
  isWorkspaceAdmin?: boolean;
  /**
   * The workspace (`slack:T…`) of a member of ANOTHER organisation acting in a shared channel (Slack Connect):
   * they never act under the shared key, decide approvals nor change configuration unless `REELBOT_WORKSPACES`
   * lists it (people/admin.ts).
   */
  externalOrg?: string;
  /** The message carrying the clicked control, for actions. */
  message?: MessageAddress;
  /**
   * The mentions in what the member typed, found by the adapter (which alone reads its platform's syntax):
   * each as written and as the neutral reference it names (a user address, a
   * `groupReference`). The core reads mentions only through this list (people/mentions.ts).
   */
  mentions?: readonly Mentioned[];
  /** Reads files shared in the conversation by their link (`create --from-file`), where the platform can. */
  files?: FileLinks;
  /** Whether the member is in another conversation, where the platform can tell (`memberOfConversation`). */
  conversations?: ConversationMembership;
  /**
   * The channels named in what the member typed, found by the adapter (Slack `<#C1|name>`, Discord `<#1>`, the
   * playground's `#general`): each as written and as its conversation address (`settings alerts #channel`).
   */
  channels?: readonly Mentioned[];
  /** Whether the bot can post in a channel, where the platform can tell (`settings alerts`). */
  channelAccess?: ChannelAccess;
}

/** `{ channels }` when any was named, for an adapter building a request (no empty list on the request). */
export const channelsOf = (channels: readonly Mentioned[]): { channels?: readonly Mentioned[] } =>
  channels.length > 0 ? { channels } : {};

/** `{ mentions }` when there are any, for an adapter building a request (no empty list on the request). */
export const mentionsOf = (mentions: readonly Mentioned[]): { mentions?: readonly Mentioned[] } =>
  mentions.length > 0 ? { mentions } : {};

/** One mention as the member wrote it (`text`, the platform's own syntax) and what it names (`ref`). */
export interface Mentioned {
  text: string;
  ref: string;
}

/** Counters the core reports; `src/main.ts` wires them to Prometheus. */
export interface CoreMetrics {
  command(name: string, outcome: 'ok' | 'user_error' | 'api_error' | 'error'): void;
}

export interface CoreDeps {
  store: Store;
  apiFor: VideoApiFactory;
  clock: Clock;
  logger: Logger;
  /** Teaches the logs which keys to mask by value (the link form; none in tests that do not look). */
  logMask?: LogMask;
  /** `VIDEO_API_KEY`: used by members who have not linked their own key. */
  deploymentKey?: string;
  /**
   * Workspaces (`slack:T1`, `discord:G1`) allowed to use `deploymentKey`; unset = every workspace that can
   * reach the bot (a single-workspace deployment).
   */
  deploymentKeyWorkspaces?: readonly string[];
  catalog: CatalogCache;
  metrics?: CoreMetrics;
  /** Max age of a watch before the poller gives up (ms). */
  watchMaxAgeMs?: number;
  /**
   * How many times faster than `clock` the service's jobs run (live/service-time.ts): unset (1) for the real
   * service, the embedded simulator's speed in demo mode; a new job's first look comes as much sooner.
   */
  serviceSpeed?: number;
  /** How approved requests run, by command: filled by `createBot` from the command modules. */
  approved?: ApprovedRunners;
  /** The dispatcher itself, for handlers made of other commands (`home`, the time-zone question): by `createBot`. */
  dispatcher?: () => Bot | undefined;
}

export interface CommandContext {
  readonly req: RequestInfo;
  readonly deps: CoreDeps;
  /** The caller's API client; throws the `not-linked` user error when there is no key. */
  api(): Promise<VideoApi>;
  /** A stable, non-secret id of the caller's key (cache keys). */
  apiKeyId(): Promise<string>;
  /** The key owner to record on watches: the caller, or '' for the deployment key. */
  keyOwner(): Promise<UserAddress>;
  /** The caller's IANA zone: `tz` setting, then the platform's, then the channel's, then UTC. */
  timeZone(): Promise<string>;
  /**
   * The zone typed times are read in and days are cut in (schedule, calendar, series times): as `timeZone`,
   * but where the platform does not share zones and none is set, throws `TimeZoneNeeded` (the dispatcher then
   * asks the member, see settings/time-zone-question.ts) instead of silently using UTC.
   */
  timeZoneToRead(): Promise<string>;
  settings(): Promise<ChannelSettings>;
  now(): number;
}

/** The deps as this request may use them: without the shared key outside its allowed workspaces. */
function scopedDeps(req: RequestInfo, deps: CoreDeps): CoreDeps {
  const allowed = deps.deploymentKeyWorkspaces;
  const guest = req.externalOrg !== undefined && !isAllowedOrg(req, deps);
  if (!deps.deploymentKey || (!guest && (!allowed || allowed.includes(workspaceOf(req.user))))) return deps;
  const { deploymentKey: _hidden, ...rest } = deps;
  return rest;
}

/** Whether a member of another organisation (Slack Connect) is one an admin allowed (`REELBOT_WORKSPACES`). */
export const isAllowedOrg = (req: RequestInfo, deps: Pick<CoreDeps, 'deploymentKeyWorkspaces'>): boolean =>
  req.externalOrg === undefined || (deps.deploymentKeyWorkspaces ?? []).includes(req.externalOrg);

export function createContext(req: RequestInfo, allDeps: CoreDeps): CommandContext {
  const deps = scopedDeps(req, allDeps);
  let cachedApi: VideoApi | undefined;
  const linked = async () => {
    try {
      return await deps.store.keys.get(req.user);
    } catch (error) {
      if (error instanceof StoredKeyUnreadableError) throw userError('key-unreadable');
      throw error;
    }
  };
  const apiKey = async () => {
    const key = (await linked())?.apiKey ?? deps.deploymentKey;
    if (!key) throw userError('not-linked');
    return key;
  };
  return {
    req,
    deps,
    async api() {
      cachedApi ??= deps.apiFor(await apiKey());
      return cachedApi;
    },
    apiKeyId: async () => keyId(await apiKey()),
    keyOwner: async () => ((await linked()) ? req.user : ''),
    timeZone: async () =>
      (await deps.store.users.getTimeZone(req.user)) ??
      req.platformTimeZone ??
      (await deps.store.settings.get(req.conversation)).timeZone ??
      'UTC',
    async timeZoneToRead() {
      const zone =
        (await deps.store.users.getTimeZone(req.user)) ??
        req.platformTimeZone ??
        (await deps.store.settings.get(req.conversation)).timeZone;
      if (zone) return zone;
      if (req.sharesTimeZones === false) throw new TimeZoneNeeded();
      return 'UTC';
    },
    settings: async () =>
      await effectiveSettings(deps.store, req.conversation, {
        knownWorkspaces: deps.deploymentKeyWorkspaces,
      }),
    now: () => deps.clock.now(),
  };
}

/**
 * An expected user mistake, with a stable code; only the dispatcher turns it into words (`messages.ts`).
 * Handlers `throw userError(...)` from deep inside helpers, the dispatcher renders it.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    readonly code: MessageCode,
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
  }
}

export const userError = (code: MessageCode, params: Record<string, string | number> = {}): UserError =>
  new UserError(code, params);
