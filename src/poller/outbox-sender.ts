/**
 * The outbox sender (DESIGN §4): delivers the chat effects the core committed with its state changes.
 *
 * - Per platform, items go out in enqueue order, one at a time; platforms run side by side.
 * - A card is posted with its CURRENT content (`store.cards`), not the content at enqueue time, so several
 *   ready edits of one card collapse into a single update, and edits the post already showed are dropped.
 * - Edits and threaded replies wait for their card's first post.
 * - Failures (429 pauses, backoff, giving up, refused cards, waiting for a card) are decided in
 *   delivery-failures.ts.
 *
 * - Senders sharing one database (two processes, replicas) never send the same row twice: each claims a row
 *   just before sending it (`store.outbox.claim`), which hides it from the others for `leaseMs` by the
 *   database's clock. A row whose sender died mid-send goes out again once that lease has run out. A sender
 *   that stalled between its claim and the send (a paused process, a long GC) for more than half the lease
 *   gives the row up instead of sending it: another sender may be taking it by then; and a sender's
 *   done/retry/fail under a claim that was taken again since is refused (the claim's fencing token).
 *   Order is kept per sender; across senders an item may overtake one of its conversation that another
 *   sender has in flight.
 *
 * Delivery is at-least-once: a crash after the platform accepted a post and before the row is marked done
 * re-sends it on restart (after the lease). Every post carries `dedupeId = 'outbox:<row id>'`, stable across those retries, so
 * an adapter that can (Discord nonce, a Slack metadata lookup) drops the duplicate.
 */
import { createHash } from 'node:crypto';
import { describeError } from '../core/dispatch/describe-error.js';
import type {
  CardRecord,
  ChatPlatform,
  ChatSender,
  Clock,
  Logger,
  MessageAddress,
  OutboxItem,
  OutboxOp,
  Store,
} from '../core/ports/index.js';
import { DeliveryFailures, type OutboxMetrics, type Step } from './delivery-failures.js';
import { LoopSlices } from './loop-turns.js';
import { startTicker, type Ticker } from './ticker.js';

export type { DeliveryOutcome, OutboxMetrics } from './delivery-failures.js';

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
  /** Failed attempts before an item fails (default 8). A platform 429 is not a failed attempt. */
  maxAttempts?: number;
  /** Backoff for transient errors: base · 2^(attempt−1), capped (defaults 1 s, 5 min). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long an edit or threaded reply waits for its card's first post before failing (default 1 h). */
  maxWaitForCardMs?: number;
  /** In [0, 1); injected for deterministic tests. */
  random?: () => number;
  /** How long a claimed row stays this sender's alone (default 30 s); see DEFAULT_LEASE_MS. */
  leaseMs?: number;
  /** How long a dashboard refresh waits for more changes to coalesce with (default 1 s). */
  homeRefreshDelayMs?: number;
}

/** A burst of changes (a click that renders and picks, say) publishes a member's dashboard once. */
export const DEFAULT_HOME_REFRESH_DELAY_MS = 1_000;

/** What a row coalesces with: every update of its card, every dashboard refresh of its member. */
const groupKey = (op: OutboxOp): string | undefined =>
  op.op === 'update-card' ? `card:${op.cardKey}` : op.op === 'refresh-home' ? `home:${op.user}` : undefined;

/**
 * Longer than a send takes unless the platform hangs through its timeouts, and short enough that the rows a
 * replica killed mid-send held go out from another replica within seconds, as its watches do. A send
 * that outlives it (Slack's worst case, token, history lookup and three degrading posts at 10 s each, is ~50 s)
 * may be sent again by another sender: posts and replies carry their dedupe id (Slack's sender journals it in
 * Store.deliveries and finds the first message; Discord's sends it as an enforced nonce, which the platform
 * answers with the first message), and an edit repeats the same content.
 */
export const DEFAULT_LEASE_MS = 30_000;

/** Content last shown per card (a digest), to drop edits a post or update already carried. Memory only:
 * after a restart an edit may be re-sent once, which is harmless. Sized for 10,000 videos live in 5
 * conversations each (one living card projected into each), at about 100 bytes an entry. */
const SHOWN_LIMIT = 50_000;

const digest = (card: CardRecord['card']): string =>
  createHash('sha1').update(JSON.stringify(card)).digest('base64');

/** One delivery: a lone item, or the coalesced updates of one card; narrowed to the rows this sender claimed. */
interface Delivery {
  lead: OutboxItem;
  group: OutboxItem[];
}

interface Lane {
  tail: Promise<void>;
  /** A run queued behind `tail` and not started yet: it will see everything ready by then. */
  queued: Promise<void> | undefined;
}

export class OutboxSender {
  readonly #o: OutboxSenderOptions;
  readonly #lanes = new Map<ChatPlatform, Lane>();
  readonly #shown = new Map<string, string>();
  readonly #failures: DeliveryFailures;
  #timer: Ticker | undefined;
  #nudge: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: OutboxSenderOptions) {
    this.#o = options;
    this.#failures = new DeliveryFailures({
      store: options.store,
      clock: options.clock,
      logger: options.logger,
      metrics: options.metrics,
      maxAttempts: options.maxAttempts,
      backoffBaseMs: options.backoffBaseMs,
      backoffMaxMs: options.backoffMaxMs,
      maxWaitForCardMs: options.maxWaitForCardMs,
      random: options.random ?? Math.random,
      conversationOf: async (op) => await this.#conversationOf(op),
    });
  }

  start(): void {
    if (this.#timer) return;
    this.#stopped = false;
    this.#timer = startTicker(this.#o.clock, this.#o.intervalMs ?? 500, () => this.#background());
    this.#background();
  }

  /** Delivers no new items and resolves once the current deliveries have finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.stop();
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
      if (this.#failures.paused(platform, now)) return;
      const items = await this.#o.store.outbox.ready(platform, now, batchSize);
      if (items.length === 0) return;
      if (!(await this.#deliverBatch(platform, sender, items))) return;
    }
  }

  /** True when at least one item moved (done, retried or failed). */
  async #deliverBatch(platform: ChatPlatform, sender: ChatSender, items: OutboxItem[]): Promise<boolean> {
    const coalesced = new Map<string, OutboxItem[]>();
    for (const item of items) {
      const key = groupKey(item.item);
      if (key === undefined) continue;
      const group = coalesced.get(key) ?? [];
      group.push(item);
      coalesced.set(key, group);
    }
    const handled = new Set<number>();
    const slices = new LoopSlices();
    let moved = false;
    for (const item of items) {
      const now = this.#o.clock.now();
      if (this.#stopped || this.#failures.paused(platform, now)) break;
      if (handled.has(item.id)) continue;
      const key = groupKey(item.item);
      const group = key === undefined ? [item] : (coalesced.get(key) ?? [item]);
      for (const member of group) handled.add(member.id);
      if (item.item.op === 'refresh-home' && this.#settling(group, now)) continue;
      const conversation = await this.#conversationOf(item.item);
      if (conversation !== undefined && this.#failures.heldBack(conversation, item.id, now)) continue;
      await slices.next();
      const step = await this.#deliverGroup(platform, sender, group);
      if (step === 'waiting') continue;
      moved = true;
      if (step === 'paused') break;
    }
    return moved;
  }

  async #deliverGroup(platform: ChatPlatform, sender: ChatSender, group: OutboxItem[]): Promise<Step> {
    const delivery: Delivery = { lead: group[0]!, group };
    const op = delivery.lead.item.op;
    try {
      const step = await this.#deliver(sender, delivery);
      if (step === 'sent' || step === 'skipped') {
        this.#o.metrics?.delivery(platform, op, step);
        for (let i = 1; i < delivery.group.length; i++) this.#o.metrics?.delivery(platform, op, 'skipped');
      }
      return step;
    } catch (error) {
      return this.#failures.failed(platform, delivery.group, error);
    }
  }

  /**
   * Sends one item (or one coalesced update) and marks it done; throws what the platform threw. Claims the
   * rows right before the platform call; 'waiting' when another sender has them.
   */
  async #deliver(sender: ChatSender, delivery: Delivery): Promise<Step> {
    const { store } = this.#o;
    const { group } = delivery;
    const op = delivery.lead.item;
    switch (op.op) {
      case 'post-card': {
        const record = await store.cards.get(op.cardKey);
        if (!record) return this.#failures.giveUp(group, `card ${op.cardKey} does not exist`);
        // Posted already (an earlier row of the same card, or a restart after setMessage): nothing to do.
        if (record.message) return this.#complete(group, 'skipped');
        const parent = await this.#threadOf(op.threadOfCard);
        if (parent === 'waiting') return this.#failures.waitForCard(group, op.threadOfCard);
        if (!(await this.#claim(delivery))) return 'waiting';
        const message = await sender.post(record.conversation, record.card, {
          dedupeId: dedupeIdOf(delivery),
          ...(parent ? { threadOf: parent } : {}),
        });
        await store.transaction(async () => {
          await store.cards.setMessage(record.key, message);
          await this.#done(delivery.lead);
        });
        this.#failures.posted(record.key);
        this.#remember(record);
        return 'sent';
      }
      case 'update-card': {
        const record = await store.cards.get(op.cardKey);
        if (!record) return this.#failures.giveUp(group, `card ${op.cardKey} does not exist`);
        if (!record.message) return this.#failures.waitForCard(group, op.cardKey);
        if (this.#shown.get(record.key) === digest(record.card)) return this.#complete(group, 'skipped');
        if (!(await this.#claim(delivery))) return 'waiting';
        await sender.update(record.message, record.card);
        this.#remember(record);
        return this.#complete(delivery.group, 'sent');
      }
      case 'reply': {
        const parent = await this.#threadOf(op.threadOfCard);
        if (parent === 'waiting') return this.#failures.waitForCard(group, op.threadOfCard);
        if (!(await this.#claim(delivery))) return 'waiting';
        await sender.post(op.conversation, op.card, {
          dedupeId: dedupeIdOf(delivery),
          ...(parent ? { threadOf: parent } : {}),
        });
        return this.#complete(delivery.group, 'sent');
      }
      case 'notify': {
        if (!(await this.#claim(delivery))) return 'waiting';
        if (op.direct && sender.direct) await sender.direct(op.user, op.conversation, op.card);
        else if (sender.notify) await sender.notify(op.user, op.conversation, op.card);
        else await sender.post(op.conversation, op.card, { dedupeId: dedupeIdOf(delivery) });
        return this.#complete(delivery.group, 'sent');
      }
      case 'refresh-home': {
        if (!sender.refreshHome) return this.#complete(group, 'skipped');
        if (!(await this.#claim(delivery))) return 'waiting';
        await sender.refreshHome(op.user);
        return this.#complete(delivery.group, 'sent');
      }
    }
  }

  /** A dashboard refresh waits until its newest change is `homeRefreshDelayMs` old, to publish a burst once. */
  #settling(group: OutboxItem[], now: number): boolean {
    const newest = Math.max(...group.map((item) => item.createdAt));
    return now - newest < (this.#o.homeRefreshDelayMs ?? DEFAULT_HOME_REFRESH_DELAY_MS);
  }

  /**
   * The message to thread under: undefined when not threaded (or the parent card is gone, so the reply
   * still goes out, in the channel), 'waiting' while the parent card is not posted yet.
   */
  async #threadOf(cardKey: string | undefined): Promise<MessageAddress | undefined | 'waiting'> {
    if (cardKey === undefined) return undefined;
    const parent = await this.#o.store.cards.get(cardKey);
    if (!parent) return undefined;
    return parent.message ?? 'waiting';
  }

  /**
   * Claims the delivery's rows (one transaction), keeping only those no other sender holds; false when
   * none is left. Called right before the platform call, so an item that waits or is skipped is never held.
   */
  async #claim(delivery: Delivery): Promise<boolean> {
    const { store, clock } = this.#o;
    const now = clock.now();
    const lease = this.#o.leaseMs ?? DEFAULT_LEASE_MS;
    const claimed = await store.transaction(async (tx) => {
      const mine: OutboxItem[] = [];
      for (const item of delivery.group) {
        const claim = await tx.outbox.claim(item.id, now, lease);
        if (claim !== undefined) mine.push({ ...item, claim });
      }
      return mine;
    });
    const lead = claimed[0];
    if (!lead) return false;
    // The claim counts from before it was asked for (the database's lease began later, never earlier). A
    // sender that stalled since, for half the lease, lets it lapse: another sender may be taking it over.
    if (clock.now() - now > lease / 2) {
      this.#o.logger.warn(
        { outboxId: lead.id, stalledMs: clock.now() - now },
        'outbox claim held too long before sending; leaving the row to the next claim',
      );
      return false;
    }
    delivery.lead = lead;
    delivery.group = claimed;
    return true;
  }

  async #complete(group: OutboxItem[], step: 'sent' | 'skipped'): Promise<Step> {
    const { store } = this.#o;
    await store.transaction(async () => {
      for (const item of group) await this.#done(item);
    });
    return step;
  }

  /** Marks a row delivered under this sender's claim; a claim taken again since is refused, and said. */
  async #done(item: OutboxItem): Promise<void> {
    if (await this.#o.store.outbox.done(item.id, item.claim)) return;
    if (item.claim !== undefined) {
      this.#o.logger.warn({ outboxId: item.id }, 'outbox claim lost before the row was marked delivered');
    }
  }

  async #conversationOf(op: OutboxOp): Promise<string | undefined> {
    if (op.op === 'reply' || op.op === 'notify') return op.conversation;
    // A member's dashboard is no conversation: nothing to keep in order with.
    if (op.op === 'refresh-home') return undefined;
    return (await this.#o.store.cards.get(op.cardKey))?.conversation;
  }

  #remember(record: CardRecord): void {
    this.#shown.delete(record.key);
    this.#shown.set(record.key, digest(record.card));
    if (this.#shown.size > SHOWN_LIMIT) {
      const oldest = this.#shown.keys().next().value;
      if (oldest !== undefined) this.#shown.delete(oldest);
    }
  }
}

/** Stable across retries of the same row, so an adapter can drop a duplicate post. */
const dedupeIdOf = (delivery: Delivery): string => `outbox:${delivery.lead.id}`;
