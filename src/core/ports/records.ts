/**
 * The records the store keeps, as the core reads and writes them: linked keys, workspace policies and channel
 * settings, subscriptions, watches, cards, outbox items, approvals, audit entries, deliveries, pending effects
 * and interaction entries. Plain data; the `Store` port (`./store.ts`) reads and writes them.
 */
import type { Card } from '../text/cards.js';
import type { ChatPlatform, ConversationAddress, MessageAddress, UserAddress } from './chat.js';

/** A member's linked API key, decrypted only inside the store. */
export interface LinkedKey {
  apiKey: string;
  keyPrefix: string;
  teamId: string;
  teamName: string;
  linkedAt: number;
}

/**
 * How a member is pinged when their video is ready or fails, or their scheduled post fails (`notify`): a mention
 * in the conversation (the default), a direct message, or not at all (the message still goes to the thread).
 */
export type NotifyMode = 'mention' | 'dm' | 'off';

/**
 * Who holds a role: `everyone`, or exactly the people and groups listed — an empty list is nobody (a channel's
 * list and its workspace's with no one in common). Helpers in `approvals/holders.ts`.
 */
export type Holders = 'everyone' | string[];

/**
 * The governance rules (DESIGN §5): set for a whole workspace by its admins, inherited by every conversation
 * of it, and only tightened by a channel (`PolicyTightening`).
 */
export interface WorkspacePolicy {
  approval: 'off' | 'publish' | 'spend';
  /** User addresses, or group/role references such as `slack-group:S123` / `discord-role:R1`; empty = nobody. */
  approvers: string[];
  selfApproval: boolean;
  spendThreshold: number;
  /** A spend that would take this calendar month's spend (workspace zone) past it needs an approver; unset = none. */
  monthlyCap?: number;
  /** Who may run each class of action. */
  roles: { publish: Holders; spend: Holders; admin: Holders };
  /** How long a publish-now or spend request waits for an approver (ms); unset = 24 h. */
  requestLifetimeMs?: number;
  /** Whether the approvers of a pending request are reminded (`settings reminders`); unset = on. */
  reminders?: boolean;
  /** Approval stages in order (`settings approval stages brand,legal`); unset = one implicit stage. */
  stages?: ApprovalStage[];
  /**
   * The workspace's publishing queue (DESIGN §10). Not a rule: `tighten` leaves it out, and the queue is read
   * where it is stored (publishing/slots-queue.ts), a channel's own (`ownQueue`) winning in that channel.
   */
  queue?: QueueSettings;
  /** Budget alerts (DESIGN §5): the workspace's alone, like the queue (`tighten` leaves them out). */
  alerts?: BudgetAlerts;
}

/** `settings alerts #channel` and `settings low-balance N`. */
export interface BudgetAlerts {
  /** Where budget alerts are posted: a channel of the workspace the bot could post in when it was set. */
  channel?: ConversationAddress;
  /** One alert when the balance falls below this many credits, again only after it rose to it or above. */
  lowBalance?: number;
}

/** One approval stage: its own approvers (unset: the general ones), and whether every one must approve. */
export interface ApprovalStage {
  name: string;
  approvers?: string[];
  /** All: every listed approver (or a member of each listed group) approves; unset = Any, one is enough. */
  all?: boolean;
}

/** A platform's queue slots: wall-clock times on some weekdays, in one zone (a slot follows DST changes). */
export interface SlotRule {
  /** Lower-case weekday names, Monday first; empty = every day. */
  days: string[];
  /** `HH:mm`, ascending. */
  times: string[];
  /** The IANA zone the times are read in. */
  zone: string;
}

/** Queue slots and daily caps per platform (keys: platform values). */
export interface QueueSettings {
  slots?: Partial<Record<string, SlotRule>>;
  /** At most this many posts a day per account of the platform, in the slots' zone (else the reader's). */
  dailyCaps?: Partial<Record<string, number>>;
}

/**
 * A channel's own rules over its workspace's (`settings … --here`): only the rules it sets, each stricter. A
 * channel's role list names people (never `everyone`: that is "as the workspace says", no rule at all).
 */
export type PolicyTightening = Partial<Omit<WorkspacePolicy, 'roles'>> & {
  roles?: Partial<Record<keyof WorkspacePolicy['roles'], string[]>>;
};

/**
 * A conversation's settings. As the store keeps them: its presentation keys plus `here` (its tightening;
 * the governance fields of rows written before workspace policies are read as one). As `ctx.settings()`
 * returns them: the governance fields are the effective policy (workspace ⊕ channel).
 */
export interface ChannelSettings extends WorkspacePolicy {
  threading: boolean;
  timeZone?: string;
  here?: PolicyTightening;
  /** This channel's own queue slots and caps (`settings slots … --here`), which win over the workspace's here. */
  ownQueue?: QueueSettings;
}

export const DEFAULT_CHANNEL_SETTINGS: ChannelSettings = {
  threading: true,
  approval: 'off',
  approvers: [],
  selfApproval: false,
  spendThreshold: 50,
  roles: { publish: 'everyone', spend: 'everyone', admin: 'everyone' },
};

export type SubscriptionKind = 'calendar' | 'series' | 'videos' | 'digest';
export interface Subscription {
  conversation: ConversationAddress;
  kind: SubscriptionKind;
  /** Series id for `series`; `daily` or `weekly` for `digest`; '' otherwise. */
  target: string;
  /** Whose key polls for it. */
  owner: UserAddress;
  createdAt: number;
  /** Only what matches every one is posted; absent (or empty) posts everything. */
  filters?: SubscriptionFilters;
}
/** `subscribe … --platform P --status S --by @member`: what a subscription keeps of the feed. */
export interface SubscriptionFilters {
  platform?: string;
  status?: 'posted' | 'failed';
  /** Videos made through the bot by this member (the `video.create` audit entry). */
  by?: UserAddress;
  /** Only posts of this series' episodes (`subscribe calendar --series S`): its id, and its name for words. */
  series?: string;
  seriesName?: string;
  /** `digest`: when it is sent (`09:00`), on which day for a weekly one (`monday`), read in `zone`. */
  at?: string;
  day?: string;
  zone?: string;
}

/** `digest`: which digest a sent period belongs to. */
export type DigestKind = 'daily' | 'weekly';
/** One digest period sent to one conversation: `2026-11-30` (the day it was due, in the digest's zone). */
export interface DigestSent {
  conversation: ConversationAddress;
  kind: DigestKind;
  period: string;
  sentAt: number;
}

/**
 * `approval`: a pending approval that expires at its scheduled time (no API call; see src/core/approvals).
 * `results`: the posts of one key's team whose views go on their videos' cards at 24 h and 7 days.
 * `balance`: a workspace's balance against its `settings low-balance` (live/balance-watcher.ts).
 * `digest`: a channel's daily or weekly digest (src/core/digests).
 */
export type WatchKind =
  | 'generation'
  | 'render'
  | 'schedule'
  | 'series'
  | 'feed'
  | 'approval'
  | 'results'
  | 'balance'
  | 'digest';
export interface Watch {
  id: string;
  kind: WatchKind;
  /**
   * Video id, render id, video id (schedule), series id, subscription id (feed), approval id, owner (results),
   * or workspace (balance).
   */
  target: string;
  /** Whose key to poll with; '' means the deployment-wide key. */
  owner: UserAddress;
  conversation: ConversationAddress;
  /** The status card this watch edits, if any. */
  cardKey: string | null;
  /** Free-form progress memory (last status, percent samples, seen ids…). */
  state: Record<string, unknown>;
  nextCheckAt: number;
  createdAt: number;
  /** Give up (with a message) after this instant. */
  expiresAt: number;
  status: 'active' | 'done' | 'expired';
  /** Set on the watches `watches.claim` returns: the claim to commit under. */
  lease?: WatchLease;
}

/**
 * A poller's claim on a watch: who holds it, and its fencing token, bumped by every claim, so a commit under a
 * claim that lapsed and was taken again (even by the same poller) is refused.
 */
export interface WatchLease {
  holder: string;
  token: number;
}
export type NewWatch = Omit<Watch, 'id' | 'status' | 'createdAt'> & { id?: string };

/** Fields to look active watches up by (`watches.activeWhere`). */
export type WatchFilter = Partial<Pick<Watch, 'kind' | 'target' | 'owner' | 'conversation' | 'cardKey'>>;

/** What `cards.put` writes: the card, where it goes, and (optionally) the model it was rendered from. */
export interface CardContent {
  conversation: ConversationAddress;
  card: Card;
  /** Omitted: an existing card keeps its stored model. */
  model?: Record<string, unknown>;
}

/** A long-lived card: where it lives and the latest content the core wants shown. */
export interface CardRecord {
  key: string;
  conversation: ConversationAddress;
  /** Set once the outbox has posted it. */
  message: MessageAddress | null;
  card: Card;
  /** The view-model the card was rendered from, so later changes merge into it (JSON). */
  model: Record<string, unknown>;
  updatedAt: number;
}

export type OutboxOp =
  | {
      op: 'post-card';
      cardKey: string;
      threadOfCard?: string;
      /**
       * A private notice for whoever asked for the card, sent if the platform refuses the post for good
       * (the bot is not in the channel): otherwise they would wait for a card that never comes.
       */
      onUnpostable?: { user: UserAddress; card: Card };
    }
  | { op: 'update-card'; cardKey: string }
  | { op: 'reply'; conversation: ConversationAddress; card: Card; threadOfCard?: string }
  /** A private notice; `direct`: a direct message (a ping moved there by `notify --dm`), never in the channel. */
  | { op: 'notify'; user: UserAddress; conversation: ConversationAddress; card: Card; direct?: boolean }
  /** Publish again a member's dashboard (Slack App Home); the sender coalesces these per user. */
  | { op: 'refresh-home'; user: UserAddress };

export interface OutboxItem {
  id: number;
  platform: ChatPlatform;
  item: OutboxOp;
  /** Unique per state change: enqueueing the same key twice is a no-op (no doubled notifications). */
  dedupeKey: string;
  attempts: number;
  notBefore: number;
  createdAt: number;
  /** The fencing token of this sender's claim on the row, once claimed (`outbox.claim`). */
  claim?: number;
}

/** `changes`: an approver sent it back to the requester with a comment; sending it again re-opens it. */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'failed' | 'changes';
export interface Approval {
  id: string;
  conversation: ConversationAddress;
  requester: UserAddress;
  /** The action to run on approval: a serialised command plus its idempotency key. */
  action: { command: string; args: Record<string, unknown>; idempotencyKey: string; summary: string };
  status: ApprovalStatus;
  cardKey: string;
  decidedBy?: UserAddress;
  decidedAt?: number;
  reason?: string;
  createdAt: number;
  expiresAt: number | null;
  /** The stage it waits at, by position in the policy's stages (absent: the first, or the only one). */
  stage?: number;
  /** How many times it was sent again after Request changes (absent: never); votes count per round. */
  round?: number;
}

/** One approver's Approve at one stage of a request (`approvals.vote`). */
export interface StageVote {
  stage: number;
  by: UserAddress;
  /** The approver references of that stage this person answers for (themselves, or a group they are in). */
  covers: string[];
  at: number;
}

export interface AuditEntry {
  at: number;
  conversation: ConversationAddress;
  actor: UserAddress;
  action: string;
  videoId?: string;
  seriesId?: string;
  credits?: number;
  details?: Record<string, unknown>;
}
/** A post an adapter started (see `Store.deliveries`). */
export interface ChatDelivery {
  conversation: ConversationAddress;
  /** Set once the platform confirmed the post. */
  message?: MessageAddress;
  startedAt: number;
}

export interface AuditQuery {
  workspacePrefix: string;
  videoId?: string;
  from?: number;
  to?: number;
  limit?: number;
}

/** How many rows of each kind `Store.purgeWorkspace` deleted. */
export interface WorkspacePurge {
  linkedKeys: number;
  userPrefs: number;
  channelSettings: number;
  policies: number;
  subscriptions: number;
  watches: number;
  /** Stage votes of the approvals that go (before them). */
  approvalVotes: number;
  approvals: number;
  outbox: number;
  cards: number;
  /** Video card states no conversation shows any more once this workspace's cards went. */
  cardStates: number;
  deliveries: number;
  effects: number;
  digests: number;
  installations: number;
}

/** A remote write whose local record may be missing (see `Store['effects']`). */
export interface PendingEffect {
  idempotencyKey: string;
  /** Which replay runs it (`create`, `publish`, `schedule`, `series.generate`). */
  command: string;
  args: Record<string, unknown>;
  /** The request it ran for (who, where): plain JSON, no secret. */
  request: Record<string, unknown>;
  attempts: number;
  lastError?: string;
  createdAt: number;
  nextAt: number;
}

/** One value an adapter keeps for a later interaction (`Store.interactions`). */
export interface InteractionEntry {
  key: string;
  /** Any JSON value. */
  value: unknown;
  ttlMs: number;
  /** A credential (an interaction token): sealed at rest with the store's secret key. */
  sealed?: boolean;
}
