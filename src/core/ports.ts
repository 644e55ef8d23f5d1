/**
 * Everything the core needs from the outside world, as small interfaces. Concrete classes live in
 * `src/api`, `src/store`, `src/poller` and `adapters/*`; only `src/main.ts` knows them all.
 */
import type { Card } from './cards.js';

/** Chat platforms reelbot speaks. */
export type ChatPlatform = 'slack' | 'discord' | 'playground';

/**
 * Opaque addresses, encoded once by `./address.ts`:
 * user `slack:T1:U1`, conversation `slack:T1:C1`, message `slack:T1:C1:1700000000.000100`.
 */
export type UserAddress = string;
export type ConversationAddress = string;
export type MessageAddress = string;

/** Injected time, so the poller, approvals and tests never sleep for real. */
export interface Clock {
  now(): number;
  /** Waits `ms` (a virtual clock may jump ahead instead); rejects with the signal's reason on abort. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves once `ms` have passed while other work runs: a deadline to race, not a wait of one's own, so a
   * virtual clock fires it only when its time moves. Rejects with the signal's reason on abort.
   */
  timer(ms: number, signal?: AbortSignal): Promise<void>;
}

const realWait = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export const systemClock: Clock = { now: () => Date.now(), sleep: realWait, timer: realWait };

/** The structured logger (pino-compatible subset). Never pass an API key, token or secret. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: object): Logger;
}

/** Secrets the logs mask by value, whatever their shape (`src/observability/logger.ts`). */
export interface LogMask {
  /** Masks `secret` in every log line from now on: a key the video service accepted. */
  accept(secret: string): void;
  /** Stops masking an accepted `secret` (its link was removed); the deployment's own secrets stay masked. */
  forget(secret: string): void;
  /** Runs `work` with `secret` masked in the log lines written while it runs, and nowhere else. */
  within<T>(secret: string, work: () => Promise<T>): Promise<T>;
}

/** A chat delivery failed; `retryAfter` (seconds) when the platform rate-limited us. */
export class ChatDeliveryError extends Error {
  override readonly name = 'ChatDeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * What the outbox sender needs from a chat platform: post and edit long-lived cards with the bot token
 * (DESIGN §4: interaction tokens expire). Implemented by each adapter.
 */
export interface ChatSender {
  readonly platform: ChatPlatform;
  /**
   * Posts a card; returns its message address. `dedupeId` is stable across retries of the same outbox row,
   * so an adapter that can (Discord nonce, Slack metadata lookup) avoids double posts after a crash.
   */
  post(
    conversation: ConversationAddress,
    card: Card,
    options: { threadOf?: MessageAddress; dedupeId: string },
  ): Promise<MessageAddress>;
  update(message: MessageAddress, card: Card): Promise<void>;
  /** A short private notice to one user (e.g. "your approval expired"); may fall back to a DM. */
  notify?(user: UserAddress, conversation: ConversationAddress, card: Card): Promise<void>;
  /** Publishes `user`'s dashboard again (Slack App Home); platforms without one leave it out. */
  refreshHome?(user: UserAddress): Promise<void>;
}

/**
 * What a chat platform can show, so the core and the adapters' renderers read one declaration instead of
 * testing the platform's name (vercel/chat's adapter capabilities, in spirit).
 */
export interface ChatCapabilities {
  /** Forms open as a dialog (Slack views, Discord modals, the playground's form). */
  modals: boolean;
  /** Answers only the asker sees. */
  ephemeral: boolean;
  /** Replies grouped under a message. */
  threads: boolean;
  /** Files can be uploaded with a message. */
  files: boolean;
  /** Option values are suggested while typing (Discord autocomplete). */
  autocomplete: boolean;
  /** Several images in one message as a gallery (Discord Components V2). */
  mediaGallery: boolean;
  /** Longest value a text input of a form takes (characters). */
  maxInputLength: number;
  /**
   * Longest typed command (or typed option value) the platform delivers whole, when that is less than a
   * field's own limit; the adapter answers a longer one through `Bot.handleTooLong`. Absent: no such cap.
   */
  maxCommandLength?: number;
  /**
   * The platform tells each member's time zone (Slack `users.info`, the playground's browser). Without it
   * (Discord) the core asks a member who has set none before reading times in theirs (RequestInfo).
   */
  sharesTimeZones: boolean;
}

/**
 * One chat platform behind the core (issue 15): Slack, Discord and the playground implement it, each in an
 * adapter folder with the same files (index.ts factory, inbound.ts, render.ts, text.ts, sender.ts).
 * `src/adapters.ts` creates the configured ones, mounts their routes, then starts them and hands their
 * senders to the outbox.
 */
export interface ChatAdapter {
  readonly name: ChatPlatform;
  readonly capabilities: ChatCapabilities;
  /** What the outbox posts and edits long-lived cards with. */
  readonly sender: ChatSender;
  /** Opens outbound connections (Socket Mode, gateway, command registration); after the server listens. */
  start(): Promise<void>;
  /** Stops what `start` opened; safe without a `start`. */
  stop(): Promise<void>;
}

/** A text file once read: its name (for messages) and its text. */
export interface TextFile {
  name: string;
  text: string;
}

/**
 * Reads a file shared in the conversation by its link (issue 19: a Slack file permalink, a Discord attachment
 * URL, a playground upload), checked like a form's upload (`readTextFile` in long-text.ts). Throws the `file-*`
 * user errors. Set on the request (`RequestInfo.files`) by the adapters that can, never serialised with it:
 * the core never fetches a URL itself.
 */
export interface FileLinks {
  read(link: string, check: { accept: readonly string[]; maxLength: number }): Promise<TextFile>;
}

/**
 * Asks the platform whether the requesting member is in a conversation (issue 26: the dashboard shows and
 * stops a channel's subscriptions only for its members). Set on the request by the adapters that can; a
 * platform that cannot tell answers undefined, which counts as "not a member" (fail closed).
 */
export interface ConversationMembership {
  isMember(conversation: ConversationAddress): Promise<boolean | undefined>;
}

/**
 * A linked key exists but cannot be decrypted: `REELBOT_SECRET_KEY` changed, or the row was altered or copied
 * from another user. Never garbage: the user has to link again (`keys.put` overwrites it).
 */
export class StoredKeyUnreadableError extends Error {
  override readonly name = 'StoredKeyUnreadableError';
  readonly code = 'stored_key_unreadable';
  constructor(
    readonly user: UserAddress,
    options?: { cause?: unknown },
  ) {
    super(
      `The API key linked by ${user} cannot be decrypted (secret key changed, or the stored row was altered)`,
      options,
    );
  }
}

/** A member's linked API key, decrypted only inside the store. */
export interface LinkedKey {
  apiKey: string;
  keyPrefix: string;
  teamId: string;
  teamName: string;
  linkedAt: number;
}

/**
 * The governance rules (DESIGN §5): set for a whole workspace by its admins, inherited by every conversation
 * of it, and only tightened by a channel (`PolicyTightening`).
 */
/**
 * Who holds a role: `everyone`, or exactly the people and groups listed — an empty list is nobody (a channel's
 * list and its workspace's with no one in common). Helpers in `approvals/holders.ts`.
 */
export type Holders = 'everyone' | string[];

export interface WorkspacePolicy {
  approval: 'off' | 'publish' | 'spend';
  /** User addresses, or group/role references such as `slack-group:S123` / `discord-role:R1`; empty = nobody. */
  approvers: string[];
  selfApproval: boolean;
  spendThreshold: number;
  /** Who may run each class of action. */
  roles: { publish: Holders; spend: Holders; admin: Holders };
  /** How long a publish-now or spend request waits for an approver (ms); unset = 24 h. */
  requestLifetimeMs?: number;
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
}

export const DEFAULT_CHANNEL_SETTINGS: ChannelSettings = {
  threading: true,
  approval: 'off',
  approvers: [],
  selfApproval: false,
  spendThreshold: 50,
  roles: { publish: 'everyone', spend: 'everyone', admin: 'everyone' },
};

export type SubscriptionKind = 'calendar' | 'series' | 'videos';
export interface Subscription {
  conversation: ConversationAddress;
  kind: SubscriptionKind;
  /** Series id for `series`; '' otherwise. */
  target: string;
  /** Whose key polls for it. */
  owner: UserAddress;
  createdAt: number;
}

/** `approval`: a pending approval that expires at its scheduled time (no API call; see src/core/approvals). */
export type WatchKind = 'generation' | 'render' | 'schedule' | 'series' | 'feed' | 'approval';
export interface Watch {
  id: string;
  kind: WatchKind;
  /** Video id, render id, video id (schedule), series id, subscription id (feed), or approval id. */
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

/** A long-lived card: where it lives and the latest content the core wants shown. */
/** What `cards.put` writes: the card, where it goes, and (optionally) the model it was rendered from. */
export interface CardContent {
  conversation: ConversationAddress;
  card: Card;
  /** Omitted: an existing card keeps its stored model. */
  model?: Record<string, unknown>;
}

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
  | { op: 'notify'; user: UserAddress; conversation: ConversationAddress; card: Card }
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

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'failed';
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
  approvals: number;
  outbox: number;
  cards: number;
  /** Video card states no conversation shows any more once this workspace's cards went. */
  cardStates: number;
  deliveries: number;
  effects: number;
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

/**
 * Persistence, asynchronous so SQLite (embedded) and PostgreSQL (several replicas) serve it alike.
 * `transaction(fn)` makes state + outbox atomic: `fn` gets `tx`, the same store bound to the transaction (the
 * store itself also routes calls made inside `fn`'s async context there); a transaction awaits only store
 * calls, never the network, because on SQLite it holds the one connection until it ends.
 */
export interface Store {
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  keys: {
    /** Throws `StoredKeyUnreadableError` when the stored key cannot be decrypted. */
    get(user: UserAddress): Promise<LinkedKey | undefined>;
    put(user: UserAddress, key: Omit<LinkedKey, 'linkedAt'>): Promise<void>;
    delete(user: UserAddress): Promise<boolean>;
  };
  users: {
    getTimeZone(user: UserAddress): Promise<string | undefined>;
    setTimeZone(user: UserAddress, tz: string): Promise<void>;
    /** The caller's most recent video or series, for `last`. */
    getLast(user: UserAddress, kind: 'video' | 'series'): Promise<string | undefined>;
    setLast(user: UserAddress, kind: 'video' | 'series', id: string): Promise<void>;
  };
  settings: {
    get(conversation: ConversationAddress): Promise<ChannelSettings>;
    put(conversation: ConversationAddress, settings: ChannelSettings): Promise<void>;
    /** Every stored conversation of `workspace` (`slack:T1`) with its settings, by conversation. */
    inWorkspace(
      workspace: string,
    ): Promise<{ conversation: ConversationAddress; settings: ChannelSettings }[]>;
  };
  /** Workspace policies, by workspace (`slack:T1`, `discord:G1`, `playground:W1`). */
  policies: {
    get(workspace: string): Promise<WorkspacePolicy | undefined>;
    put(workspace: string, policy: WorkspacePolicy): Promise<void>;
    /** Every stored policy whose workspace starts with `prefix` (`discord:`), by workspace. */
    list(prefix: string): Promise<{ workspace: string; policy: WorkspacePolicy }[]>;
  };
  subscriptions: {
    add(sub: Omit<Subscription, 'createdAt'>): Promise<boolean>;
    remove(conversation: ConversationAddress, kind: SubscriptionKind, target: string): Promise<boolean>;
    list(conversation: ConversationAddress): Promise<Subscription[]>;
    /** Every subscription of one workspace (`slack:T1`), by conversation (App Home). */
    inWorkspace(workspace: string): Promise<Subscription[]>;
  };
  watches: {
    add(watch: NewWatch): Promise<Watch>;
    get(id: string): Promise<Watch | undefined>;
    /** Active watches with nextCheckAt <= now, soonest first; none under a running lease but `holder`'s. */
    due(now: number, limit: number, holder?: string): Promise<Watch[]>;
    /** Every active watch: for tests and tools; commands use an indexed lookup (`activeWhere`). */
    active(): Promise<Watch[]>;
    /** Active watches matching every given field (at least one), oldest first; served by an index. */
    activeWhere(filter: WatchFilter): Promise<Watch[]>;
    findActive(kind: WatchKind, target: string): Promise<Watch | undefined>;
    /** The active watch of one kind for one target in one conversation (a card's watch there), if any. */
    findActiveIn(
      kind: WatchKind,
      target: string,
      conversation: ConversationAddress,
    ): Promise<Watch | undefined>;
    update(
      id: string,
      patch: Partial<Pick<Watch, 'state' | 'nextCheckAt' | 'status' | 'cardKey'>>,
    ): Promise<void>;
    /**
     * Leases watches to one poller (issue 17): of `ids`, those still active, due at `lease.now` and not leased
     * to another poller (or whose lease has run out) are leased to `lease.holder` for `lease.until - lease.now`
     * (by the database's clock on PostgreSQL), and returned with their `lease`. Pollers sharing a database
     * (replicas) thus never check one watch at once, and a dead one's watches are taken over once its leases
     * lapse. `due` leaves out watches under a running lease.
     */
    claim(ids: readonly string[], lease: { holder: string; now: number; until: number }): Promise<Watch[]>;
    /**
     * Ends a claim on a watch; false when the watch was claimed again since (this lease ran out): the caller's
     * result is then stale and must not be committed.
     */
    release(id: string, lease: WatchLease): Promise<boolean>;
  };
  cards: {
    get(key: string): Promise<CardRecord | undefined>;
    /** Creates or replaces the content and model; keeps the message address once set. */
    put(key: string, content: CardContent): Promise<CardRecord>;
    setMessage(key: string, message: MessageAddress): Promise<void>;
    /** Every card whose key starts with `prefix` (a subject's projections: `video:<id>@`), by key. */
    withPrefix(prefix: string): Promise<CardRecord[]>;
  };
  /** The one state of a subject's card (`video:<id>`), which each of its projections renders. */
  cardStates: {
    get(subject: string): Promise<Record<string, unknown> | undefined>;
    put(subject: string, model: Record<string, unknown>): Promise<void>;
  };
  outbox: {
    /** Returns false when `dedupeKey` was already enqueued. */
    enqueue(platform: ChatPlatform, item: OutboxOp, dedupeKey: string): Promise<boolean>;
    /** Ready items (notBefore <= now), oldest first; superseded card updates are skipped by the sender. */
    ready(platform: ChatPlatform, now: number, limit: number): Promise<OutboxItem[]>;
    /**
     * Takes a ready item for one sender just before it sends: hides it from every other sender for `leaseMs`
     * (by the database's clock on PostgreSQL) and returns the claim's fencing token; undefined when it is no
     * longer ready (done, failed, or claimed). An item whose sender died while sending is ready again once the
     * lease has run out. The calls below given a token change the row only while that claim is its latest.
     */
    claim(id: number, now: number, leaseMs: number): Promise<number | undefined>;
    /** Marks the item delivered; false when it was not (finished already, or claimed again since `claim`). */
    done(id: number, claim?: number): Promise<boolean>;
    /** Counts a failed attempt and sets when to try again. */
    retry(id: number, notBefore: number, claim?: number): Promise<void>;
    /** Sets when to try again without counting an attempt: the platform asked us to wait (429). */
    postpone(id: number, notBefore: number, claim?: number): Promise<void>;
    /** Gives up on an item after too many attempts (kept for inspection). */
    fail(id: number, error: string, claim?: number): Promise<void>;
    /**
     * Gives up on every pending edit of a card and every item threaded under it, because the card itself
     * could not be posted; returns how many.
     */
    failWaitingOn(cardKey: string, error: string): Promise<number>;
    depth(platform?: ChatPlatform): Promise<number>;
  };
  /**
   * One idempotency key per logical user action, created once and reused on every retry and restart. With
   * `reuseForMs`, a key older than that is replaced by a new one: the same action name then names a new
   * action (a typed command repeated well after the first; see src/core/request-id.ts).
   */
  idempotency: {
    keyFor(action: string, options?: { reuseForMs?: number }): Promise<string>;
    /** When the key of `action` was stored (or last renewed); undefined when there is none. Makes no key. */
    storedAt(action: string): Promise<number | undefined>;
  };
  /**
   * Remote writes between their request and the local commit recording them (issue 14): `begin` before the
   * request, `settle` in the commit's transaction; rows left over are replayed by `reconcileEffects`.
   */
  effects: {
    /** Records (or, pressed again, re-arms) the effect; `nextAt` is when a replay may first try it. */
    begin(effect: Omit<PendingEffect, 'attempts' | 'createdAt' | 'lastError'>): Promise<void>;
    settle(idempotencyKey: string): Promise<boolean>;
    /** Effects with nextAt <= now, oldest first. */
    due(now: number, limit: number): Promise<PendingEffect[]>;
    /** Takes a due effect until `until` (false when another replayer moved it first). */
    claim(idempotencyKey: string, claim: { from: number; until: number }): Promise<boolean>;
    /** Counts a failed replay and keeps its reason. */
    failed(idempotencyKey: string, error: string): Promise<void>;
    count(): Promise<number>;
  };
  approvals: {
    create(approval: Omit<Approval, 'status' | 'createdAt'>): Promise<Approval>;
    get(id: string): Promise<Approval | undefined>;
    /** Atomically moves a pending approval; false if it was no longer pending (double click, race). */
    decide(
      id: string,
      decision: { status: Exclude<ApprovalStatus, 'pending'>; by?: UserAddress; at: number; reason?: string },
    ): Promise<boolean>;
    pendingExpiring(before: number): Promise<Approval[]>;
    /** Pending approvals of one workspace (`slack:T1`), oldest first (the approvals inbox). */
    pendingIn(workspace: string): Promise<Approval[]>;
    /**
     * Pending approvals about one video (`action.args.videoId`), in every workspace, oldest first: a change
     * to the video is guarded by each, wherever it is typed (content-guard.ts).
     */
    pendingAbout(videoId: string): Promise<Approval[]>;
  };
  audit: {
    record(entry: AuditEntry): Promise<void>;
    list(query: AuditQuery): Promise<AuditEntry[]>;
  };
  /**
   * Chat app installations (Slack OAuth, one per workspace or enterprise id): the SDK's opaque JSON, sealed at
   * rest like linked keys because it holds the bot token. `get` throws when it cannot be decrypted.
   */
  installations: {
    get(id: string): Promise<string | undefined>;
    put(id: string, data: string): Promise<void>;
    delete(id: string): Promise<boolean>;
  };
  /**
   * The posts an adapter started, by the outbox `dedupeId`. A row without `message` means an earlier attempt
   * may or may not have reached the platform (crash, timeout): the adapter looks for it before posting again.
   */
  deliveries: {
    get(dedupeId: string): Promise<ChatDelivery | undefined>;
    begin(dedupeId: string, conversation: ConversationAddress): Promise<void>;
    finish(dedupeId: string, message: MessageAddress): Promise<void>;
  };
  /**
   * What a chat adapter keeps between one interaction and the next (issue 28): a form it showed, the pages of
   * a form submitted so far, a value too long for a control. JSON by key until it expires, read by whichever
   * replica receives the next interaction.
   */
  interactions: {
    /** Stores every entry (replacing any under the same key); expired entries are pruned now and then. */
    put(entries: readonly InteractionEntry[]): Promise<void>;
    /** The value kept under `key`, as it was put; undefined once expired (or when it cannot be opened). */
    get<T>(key: string): Promise<T | undefined>;
    /** Reads and deletes: of several replicas taking one key, one gets the value. */
    take<T>(key: string): Promise<T | undefined>;
    /** Deletes every expired entry; returns how many. */
    prune(): Promise<number>;
  };
  /**
   * Forgets workspaces (`slack:T1`) in one transaction: every row addressed in them (linked keys, prefs,
   * settings, policy, subscriptions, watches, approvals, cards, posts not made) and the named installations.
   */
  purgeWorkspace(purge: {
    workspaces: readonly string[];
    installations: readonly string[];
  }): Promise<WorkspacePurge>;
  close(): Promise<void>;
}
