/**
 * The store port: persistence for every record in `./records.ts`, asynchronous so SQLite (embedded) and
 * PostgreSQL (several replicas) serve it alike, and the error a linked key that cannot be read raises.
 * Implemented in `src/store` (`SqliteStore`, `PostgresStore`).
 */
import type { ChatPlatform, ConversationAddress, MessageAddress, UserAddress } from './chat.js';
import type {
  Approval,
  ApprovalStatus,
  AuditEntry,
  AuditQuery,
  CardContent,
  CardRecord,
  ChannelSettings,
  ChatDelivery,
  DigestSent,
  InteractionEntry,
  LinkedKey,
  NewWatch,
  NotifyMode,
  OutboxItem,
  OutboxOp,
  PendingEffect,
  StageVote,
  Subscription,
  SubscriptionFilters,
  SubscriptionKind,
  Watch,
  WatchFilter,
  WatchKind,
  WatchLease,
  WorkspacePolicy,
  WorkspacePurge,
} from './records.js';

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
    /** How the member is pinged (`notify`); undefined when never set (a mention). */
    getNotify(user: UserAddress): Promise<NotifyMode | undefined>;
    setNotify(user: UserAddress, mode: NotifyMode): Promise<void>;
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
    /** Replaces the filters of an existing subscription (`{}` clears them); false when there is none. */
    setFilters(
      sub: Pick<Subscription, 'conversation' | 'kind' | 'target'>,
      filters: SubscriptionFilters,
    ): Promise<boolean>;
    list(conversation: ConversationAddress): Promise<Subscription[]>;
    /** Every subscription of one workspace (`slack:T1`), by conversation (App Home). */
    inWorkspace(workspace: string): Promise<Subscription[]>;
  };
  /**
   * Digest periods sent (`subscribe digest`): claimed in the transaction that enqueues the digest, so a period
   * is sent once whatever restarts or replicas do.
   */
  digests: {
    /** Records the period as sent; false when it already was (the caller then sends nothing). */
    claim(sent: Omit<DigestSent, 'sentAt'>): Promise<boolean>;
    /** The periods sent to a conversation, oldest first. */
    sent(conversation: ConversationAddress): Promise<DigestSent[]>;
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
     * Leases watches to one poller: of `ids`, those still active, due at `lease.now` and not leased
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
   * action (a typed command repeated well after the first; see src/core/dispatch/request-id.ts).
   */
  idempotency: {
    keyFor(action: string, options?: { reuseForMs?: number }): Promise<string>;
    /** When the key of `action` was stored (or last renewed); undefined when there is none. Makes no key. */
    storedAt(action: string): Promise<number | undefined>;
  };
  /**
   * Remote writes between their request and the local commit recording them: `begin` before the
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
    create(approval: Omit<Approval, 'status' | 'createdAt' | 'stage' | 'round'>): Promise<Approval>;
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
    /**
     * Counts one approver's Approve at a stage of a still-pending request in `round`: false when it no longer
     * waits there, or this person already counted. Holds the request's row until the transaction ends, so
     * concurrent votes of one stage are counted one after the other.
     */
    vote(id: string, vote: StageVote & { round: number }): Promise<boolean>;
    /** The votes of one round of a request, oldest first. */
    votes(id: string, round: number): Promise<StageVote[]>;
    /** Moves a pending request from stage `from` of `round` to stage `to` (compare-and-set). */
    advance(id: string, move: { round: number; from: number; to: number }): Promise<boolean>;
    /**
     * A request sent back with Request changes waits again, at the first stage of a new round, until
     * `expiresAt`; false when it was not waiting for changes.
     */
    reopen(id: string, reopen: { expiresAt: number | null }): Promise<boolean>;
    /** The requests of `requester` in `conversation` sent back with Request changes, oldest first. */
    sentBack(conversation: string, requester: UserAddress): Promise<Approval[]>;
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
   * What a chat adapter keeps between one interaction and the next: a form it showed, the pages of
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
