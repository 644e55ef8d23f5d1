/**
 * The outbox sender (DESIGN §4): delivers the chat effects the core committed with its state changes.
 *
 * - Per platform, items go out in enqueue order, one at a time; platforms run side by side.
 * - A card is posted with its CURRENT content (`store.cards`), not the content at enqueue time, so several
 *   ready edits of one card collapse into a single update, and edits the post already showed are dropped.
 * - Edits and threaded replies wait for their card's first post.
 * - A platform's 429 pauses that platform until its Retry-After; other transient errors back off
 *   exponentially per item; permanent errors, or too many attempts, fail the item (kept for inspection).
 *
 * Delivery is at-least-once: a crash after the platform accepted a post and before the row is marked done
 * re-sends it on restart. Every post carries `dedupeId = 'outbox:<row id>'`, stable across those retries, so
 * an adapter that can (Discord nonce, a Slack metadata lookup) drops the duplicate.
 */
import {
  type CardRecord,
  ChatDeliveryError,
  type ChatPlatform,
  type ChatSender,
  type Clock,
  type Logger,
  type MessageAddress,
  type OutboxItem,
  type OutboxOp,
  type Store,
} from '../core/ports.js';
import { exponential, jittered } from './delays.js';
import { describeError } from './describe-error.js';

export type DeliveryOutcome =
  | 'sent'
  /** Nothing to send: coalesced into another update, or already shown. */
  | 'skipped'
  | 'retry'
  | 'failed';

/** What the sender reports; `src/main.ts` wires it to Prometheus. */
export interface OutboxMetrics {
  delivery(platform: ChatPlatform, op: OutboxOp['op'], outcome: DeliveryOutcome): void;
}

export interface OutboxSenderOptions {
  store: Store;
  senders: Partial<Record<ChatPlatform, ChatSender>>;
  clock: Clock;
  logger: Logger;
  metrics?: OutboxMetrics;
  /** Period of the `start()` loop (default 500 ms); `nudge()` delivers sooner. */
  intervalMs?: number;
  /** Ready rows read per pass and platform (default 200). */
  batchSize?: number;
  /** Attempts before an item fails (default 8). A platform 429 is retried whatever the count. */
  maxAttempts?: number;
  /** Backoff for transient errors: base · 2^(attempt−1), capped (defaults 1 s, 5 min). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long an edit or threaded reply waits for its card's first post before failing (default 1 h). */
  maxWaitForCardMs?: number;
  /** In [0, 1); injected for deterministic tests. */
  random?: () => number;
}

/** What happened to one item (or one group of coalesced updates). */
type Step = DeliveryOutcome | 'waiting' | 'paused';

/** Content last shown per card, to drop edits a post or update already carried. Memory only: after a
 * restart an edit may be re-sent once, which is harmless. */
const SHOWN_LIMIT = 10_000;

interface Lane {
  tail: Promise<void>;
  /** A run queued behind `tail` and not started yet: it will see everything ready by then. */
  queued: Promise<void> | undefined;
}

export class OutboxSender {
  readonly #o: OutboxSenderOptions;
  readonly #lanes = new Map<ChatPlatform, Lane>();
  readonly #pausedUntil = new Map<ChatPlatform, number>();
  readonly #shown = new Map<string, string>();
  /** Conversations whose item `id` backs off until `until`: their later items wait too, keeping order. */
  readonly #holds = new Map<string, { id: number; until: number }>();
  /**
   * Cards the platform refused to post: edits and replies waiting for them fail at once instead of after
   * `maxWaitForCardMs`. Memory only (the ones pending at the refusal are failed in the store); a later post
   * of the card (`/reel status` after inviting the bot) clears it.
   */
  readonly #unpostable = new Set<string>();
  readonly #random: () => number;
  #timer: NodeJS.Timeout | undefined;
  #nudge: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: OutboxSenderOptions) {
    this.#o = options;
    this.#random = options.random ?? Math.random;
  }

  start(): void {
    if (this.#timer) return;
    this.#stopped = false;
    this.#timer = setInterval(() => this.#background(), this.#o.intervalMs ?? 500);
    this.#timer.unref();
    this.#background();
  }

  /** Delivers no new items and resolves once the current deliveries have finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#nudge) clearTimeout(this.#nudge);
    this.#timer = undefined;
    this.#nudge = undefined;
    await Promise.all([...this.#lanes.values()].map((lane) => lane.tail));
  }

  /** Something was just enqueued: deliver soon rather than at the next interval (only while started). */
  nudge(): void {
    if (!this.#timer || this.#nudge) return;
    this.#nudge = setTimeout(() => {
      this.#nudge = undefined;
      this.#background();
    }, 0);
    this.#nudge.unref();
  }

  /** Delivers everything ready now, on every platform that has a sender. */
  async drain(): Promise<void> {
    const platforms = Object.keys(this.#o.senders) as ChatPlatform[];
    await Promise.all(platforms.map((platform) => this.#drainPlatform(platform)));
  }

  #background(): void {
    this.drain().catch((error: unknown) =>
      this.#o.logger.error({ err: describeError(error) }, 'outbox pass failed; will retry'),
    );
  }

  /** Runs of one platform never overlap (order); callers arriving while a run waits share it. */
  #drainPlatform(platform: ChatPlatform): Promise<void> {
    let lane = this.#lanes.get(platform);
    if (!lane) {
      lane = { tail: Promise.resolve(), queued: undefined };
      this.#lanes.set(platform, lane);
    }
    if (lane.queued) return lane.queued;
    const current = lane;
    const run = current.tail
      .then(() => {
        current.queued = undefined;
        return this.#run(platform);
      })
      .catch((error: unknown) =>
        this.#o.logger.error({ platform, err: describeError(error) }, 'outbox delivery pass failed'),
      );
    current.queued = run;
    current.tail = run;
    return run;
  }

  async #run(platform: ChatPlatform): Promise<void> {
    const sender = this.#o.senders[platform];
    if (!sender) return;
    const batchSize = this.#o.batchSize ?? 200;
    // Rows retried with no delay come straight back; the bound keeps a misbehaving platform from spinning.
    for (let pass = 0; pass < 20 && !this.#stopped; pass++) {
      const now = this.#o.clock.now();
      if (this.#paused(platform, now)) return;
      const items = this.#o.store.outbox.ready(platform, now, batchSize);
      if (items.length === 0) return;
      if (!(await this.#deliverBatch(platform, sender, items))) return;
    }
  }

  /** True when at least one item moved (done, retried or failed). */
  async #deliverBatch(platform: ChatPlatform, sender: ChatSender, items: OutboxItem[]): Promise<boolean> {
    const updatesByCard = new Map<string, OutboxItem[]>();
    for (const item of items) {
      if (item.item.op !== 'update-card') continue;
      const group = updatesByCard.get(item.item.cardKey) ?? [];
      group.push(item);
      updatesByCard.set(item.item.cardKey, group);
    }
    const handled = new Set<number>();
    let moved = false;
    for (const item of items) {
      const now = this.#o.clock.now();
      if (this.#stopped || this.#paused(platform, now)) break;
      if (handled.has(item.id)) continue;
      const group =
        item.item.op === 'update-card' ? (updatesByCard.get(item.item.cardKey) ?? [item]) : [item];
      for (const member of group) handled.add(member.id);
      const conversation = this.#conversationOf(item.item);
      if (conversation !== undefined && this.#heldBack(conversation, item.id, now)) continue;
      const step = await this.#deliverGroup(platform, sender, group);
      if (step === 'waiting') continue;
      moved = true;
      if (step === 'paused') break;
    }
    return moved;
  }

  async #deliverGroup(platform: ChatPlatform, sender: ChatSender, group: OutboxItem[]): Promise<Step> {
    const lead = group[0]!;
    try {
      const step = await this.#deliver(sender, lead, group);
      if (step === 'sent' || step === 'skipped') {
        this.#o.metrics?.delivery(platform, lead.item.op, step);
        for (let i = 1; i < group.length; i++) this.#o.metrics?.delivery(platform, lead.item.op, 'skipped');
      }
      return step;
    } catch (error) {
      return this.#failed(platform, group, error);
    }
  }

  /** Sends one item (or one coalesced update) and marks it done; throws what the platform threw. */
  async #deliver(sender: ChatSender, lead: OutboxItem, group: OutboxItem[]): Promise<Step> {
    const { store } = this.#o;
    const op = lead.item;
    const dedupeId = `outbox:${lead.id}`;
    switch (op.op) {
      case 'post-card': {
        const record = store.cards.get(op.cardKey);
        if (!record) return this.#giveUp(group, `card ${op.cardKey} does not exist`);
        // Posted already (an earlier row of the same card, or a restart after setMessage): nothing to do.
        if (record.message) return this.#complete(group, 'skipped');
        const parent = this.#threadOf(op.threadOfCard);
        if (parent === 'waiting') return this.#waitForCard(group, op.threadOfCard);
        const message = await sender.post(record.conversation, record.card, {
          dedupeId,
          ...(parent ? { threadOf: parent } : {}),
        });
        store.transaction(() => {
          store.cards.setMessage(record.key, message);
          store.outbox.done(lead.id);
        });
        this.#unpostable.delete(record.key);
        this.#remember(record);
        return 'sent';
      }
      case 'update-card': {
        const record = store.cards.get(op.cardKey);
        if (!record) return this.#giveUp(group, `card ${op.cardKey} does not exist`);
        if (!record.message) return this.#waitForCard(group, op.cardKey);
        if (this.#shown.get(record.key) === JSON.stringify(record.card))
          return this.#complete(group, 'skipped');
        await sender.update(record.message, record.card);
        this.#remember(record);
        return this.#complete(group, 'sent');
      }
      case 'reply': {
        const parent = this.#threadOf(op.threadOfCard);
        if (parent === 'waiting') return this.#waitForCard(group, op.threadOfCard);
        await sender.post(op.conversation, op.card, { dedupeId, ...(parent ? { threadOf: parent } : {}) });
        return this.#complete(group, 'sent');
      }
      case 'notify': {
        if (sender.notify) await sender.notify(op.user, op.conversation, op.card);
        else await sender.post(op.conversation, op.card, { dedupeId });
        return this.#complete(group, 'sent');
      }
    }
  }

  /**
   * The message to thread under: undefined when not threaded (or the parent card is gone, so the reply
   * still goes out, in the channel), 'waiting' while the parent card is not posted yet.
   */
  #threadOf(cardKey: string | undefined): MessageAddress | undefined | 'waiting' {
    if (cardKey === undefined) return undefined;
    const parent = this.#o.store.cards.get(cardKey);
    if (!parent) return undefined;
    return parent.message ?? 'waiting';
  }

  #complete(group: OutboxItem[], step: 'sent' | 'skipped'): Step {
    const { store } = this.#o;
    store.transaction(() => {
      for (const item of group) store.outbox.done(item.id);
    });
    return step;
  }

  /** Leaves the items for a later pass; fails them once the card has been unposted for too long. */
  #waitForCard(group: OutboxItem[], cardKey: string | undefined): Step {
    if (cardKey !== undefined && this.#unpostable.has(cardKey)) {
      return this.#giveUp(group, `card ${cardKey} could not be posted`);
    }
    const oldest = Math.min(...group.map((item) => item.createdAt));
    if (this.#o.clock.now() - oldest < (this.#o.maxWaitForCardMs ?? 3_600_000)) return 'waiting';
    return this.#giveUp(group, `card ${cardKey} was never posted`);
  }

  /** `refused`: the platform will never take this item (not a transient failure that ran out of attempts). */
  #giveUp(group: OutboxItem[], reason: string, refused = false): Step {
    const { store, logger, metrics } = this.#o;
    store.transaction(() => {
      for (const item of group) {
        store.outbox.fail(item.id, reason);
        if (refused) this.#cardRefused(item);
      }
    });
    for (const item of group) {
      logger.error(
        { outboxId: item.id, platform: item.platform, op: item.item.op, reason },
        'outbox item failed',
      );
      metrics?.delivery(item.platform, item.item.op, 'failed');
    }
    return 'failed';
  }

  /**
   * A card the platform refused to post (Slack `not_in_channel`, Discord 403): what waits for it fails now,
   * and whoever asked for it hears why, privately, with what to do (in the same transaction).
   */
  #cardRefused(item: OutboxItem): void {
    const op = item.item;
    if (op.op !== 'post-card') return;
    const { store, logger } = this.#o;
    this.#unpostable.add(op.cardKey);
    const failed = store.outbox.failWaitingOn(op.cardKey, `card ${op.cardKey} could not be posted`);
    const conversation = store.cards.get(op.cardKey)?.conversation;
    if (op.onUnpostable && conversation) {
      store.outbox.enqueue(
        item.platform,
        { op: 'notify', user: op.onUnpostable.user, conversation, card: op.onUnpostable.card },
        `${item.dedupeKey}:unpostable`,
      );
    }
    logger.warn(
      { outboxId: item.id, platform: item.platform, waitingFailed: failed, requesterTold: !!op.onUnpostable },
      'card refused by the platform; its edits and replies failed',
    );
  }

  #failed(platform: ChatPlatform, group: OutboxItem[], error: unknown): Step {
    const { clock, logger, metrics } = this.#o;
    const lead = group[0]!;
    const now = clock.now();
    const context = { platform, outboxId: lead.id, op: lead.item.op, err: describeError(error) };
    if (error instanceof ChatDeliveryError && error.retryable && error.retryAfter !== undefined) {
      // The platform's rate limit covers every call we make to it: hold the whole platform, not just this row.
      const until = now + Math.max(0, error.retryAfter) * 1000;
      this.#pausedUntil.set(platform, Math.max(until, this.#pausedUntil.get(platform) ?? 0));
      // Waiting as asked is not a failed attempt: only real failures count towards giving up.
      this.#retry(group, until, { countAttempt: false });
      logger.warn(
        { ...context, retryAfterS: error.retryAfter },
        'chat platform rate limited; pausing deliveries',
      );
      metrics?.delivery(platform, lead.item.op, 'retry');
      return 'paused';
    }
    const retryable = !(error instanceof ChatDeliveryError) || error.retryable;
    const attempts = lead.attempts + 1;
    if (!retryable || attempts >= (this.#o.maxAttempts ?? 8)) {
      return this.#giveUp(
        group,
        `${context.err.name}: ${context.err.message} (attempt ${attempts})`,
        !retryable,
      );
    }
    const wait = jittered(
      exponential(attempts, this.#o.backoffBaseMs ?? 1000, this.#o.backoffMaxMs ?? 300_000),
      {
        ratio: 0.1,
        random: this.#random,
        min: 0,
      },
    );
    this.#retry(group, now + wait);
    const conversation = this.#conversationOf(lead.item);
    if (conversation !== undefined) this.#holds.set(conversation, { id: lead.id, until: now + wait });
    logger.warn({ ...context, attempts, waitMs: wait }, 'chat delivery failed; will retry');
    metrics?.delivery(platform, lead.item.op, 'retry');
    return 'retry';
  }

  #retry(group: OutboxItem[], notBefore: number, options: { countAttempt?: boolean } = {}): void {
    const { store } = this.#o;
    store.transaction(() => {
      for (const item of group) {
        if (options.countAttempt === false) store.outbox.postpone(item.id, notBefore);
        else store.outbox.retry(item.id, notBefore);
      }
    });
  }

  /**
   * Memory only: after a restart, a later item may overtake one still backing off (the platform pause of a
   * 429 is kept on the rows themselves).
   */
  #heldBack(conversation: string, id: number, now: number): boolean {
    const hold = this.#holds.get(conversation);
    if (!hold) return false;
    if (hold.until <= now) {
      this.#holds.delete(conversation);
      return false;
    }
    return id > hold.id;
  }

  #paused(platform: ChatPlatform, now: number): boolean {
    return (this.#pausedUntil.get(platform) ?? 0) > now;
  }

  #conversationOf(op: OutboxOp): string | undefined {
    if (op.op === 'reply' || op.op === 'notify') return op.conversation;
    return this.#o.store.cards.get(op.cardKey)?.conversation;
  }

  #remember(record: CardRecord): void {
    this.#shown.delete(record.key);
    this.#shown.set(record.key, JSON.stringify(record.card));
    if (this.#shown.size > SHOWN_LIMIT) {
      const oldest = this.#shown.keys().next().value;
      if (oldest !== undefined) this.#shown.delete(oldest);
    }
  }
}
