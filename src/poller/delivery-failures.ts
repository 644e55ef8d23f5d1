/**
 * The failure half of the outbox sender (outbox-sender.ts): what happens when a delivery does not go through.
 *
 * - A platform's 429 pauses that whole platform until its Retry-After; the rows are postponed without
 *   counting an attempt (waiting as asked is not failing).
 * - Other transient errors back off exponentially per item, and hold back the later items of the same
 *   conversation so it stays in order; after `maxAttempts` real failures the item fails (kept for inspection).
 * - Permanent errors fail the item at once; a card the platform refuses to post fails what waits for it and
 *   tells the requester privately.
 * - Edits and threaded replies wait for their card's first post, up to `maxWaitForCardMs`.
 */
import { describeError } from '../core/dispatch/describe-error.js';
import {
  ChatDeliveryError,
  type ChatPlatform,
  type Clock,
  type Logger,
  type OutboxItem,
  type OutboxOp,
  type Store,
} from '../core/ports/index.js';
import { exponential, jittered } from './delays.js';

export type DeliveryOutcome =
  | 'sent'
  /** Nothing to send: coalesced into another update, or already shown. */
  | 'skipped'
  | 'retry'
  | 'failed';

/** What happened to one item (or one group of coalesced updates). */
export type Step = DeliveryOutcome | 'waiting' | 'paused';

/** What the sender reports; `src/main.ts` wires it to Prometheus. */
export interface OutboxMetrics {
  delivery(platform: ChatPlatform, op: OutboxOp['op'], outcome: DeliveryOutcome): void;
}

export interface DeliveryFailureOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  metrics?: OutboxMetrics | undefined;
  maxAttempts?: number | undefined;
  backoffBaseMs?: number | undefined;
  backoffMaxMs?: number | undefined;
  maxWaitForCardMs?: number | undefined;
  random: () => number;
  /** The conversation an item goes to (for keeping it in order while one of its items backs off). */
  conversationOf(op: OutboxOp): Promise<string | undefined>;
}

export class DeliveryFailures {
  readonly #o: DeliveryFailureOptions;
  readonly #pausedUntil = new Map<ChatPlatform, number>();
  /** Conversations whose item `id` backs off until `until`: their later items wait too, keeping order. */
  readonly #holds = new Map<string, { id: number; until: number }>();
  /**
   * Cards the platform refused to post: edits and replies waiting for them fail at once instead of after
   * `maxWaitForCardMs`. Memory only (the ones pending at the refusal are failed in the store); a later post
   * of the card (`/reel status` after inviting the bot) clears it.
   */
  readonly #unpostable = new Set<string>();

  constructor(options: DeliveryFailureOptions) {
    this.#o = options;
  }

  /** The card was posted after all: what waits for it may go. */
  posted(cardKey: string): void {
    this.#unpostable.delete(cardKey);
  }

  /** Leaves the items for a later pass; fails them once the card has been unposted for too long. */
  async waitForCard(group: OutboxItem[], cardKey: string | undefined): Promise<Step> {
    if (cardKey !== undefined && this.#unpostable.has(cardKey)) {
      return await this.giveUp(group, `card ${cardKey} could not be posted`);
    }
    const oldest = Math.min(...group.map((item) => item.createdAt));
    if (this.#o.clock.now() - oldest < (this.#o.maxWaitForCardMs ?? 3_600_000)) return 'waiting';
    return await this.giveUp(group, `card ${cardKey} was never posted`);
  }

  /** `refused`: the platform will never take this item (not a transient failure that ran out of attempts). */
  async giveUp(group: OutboxItem[], reason: string, refused = false): Promise<Step> {
    const { store, logger, metrics } = this.#o;
    await store.transaction(async () => {
      for (const item of group) {
        await store.outbox.fail(item.id, reason, item.claim);
        if (refused) await this.#cardRefused(item);
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
  async #cardRefused(item: OutboxItem): Promise<void> {
    const op = item.item;
    if (op.op !== 'post-card') return;
    const { store, logger } = this.#o;
    this.#unpostable.add(op.cardKey);
    const failed = await store.outbox.failWaitingOn(op.cardKey, `card ${op.cardKey} could not be posted`);
    const conversation = (await store.cards.get(op.cardKey))?.conversation;
    if (op.onUnpostable && conversation) {
      await store.outbox.enqueue(
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

  async failed(platform: ChatPlatform, group: OutboxItem[], error: unknown): Promise<Step> {
    const { clock, logger, metrics } = this.#o;
    const lead = group[0]!;
    const now = clock.now();
    const context = { platform, outboxId: lead.id, op: lead.item.op, err: describeError(error) };
    if (error instanceof ChatDeliveryError && error.retryable && error.retryAfter !== undefined) {
      // The platform's rate limit covers every call we make to it: hold the whole platform, not just this row.
      const until = now + Math.max(0, error.retryAfter) * 1000;
      this.#pausedUntil.set(platform, Math.max(until, this.#pausedUntil.get(platform) ?? 0));
      // Waiting as asked is not a failed attempt: only real failures count towards giving up.
      await this.#retry(group, until, { countAttempt: false });
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
      return await this.giveUp(
        group,
        `${context.err.name}: ${context.err.message} (attempt ${attempts})`,
        !retryable,
      );
    }
    const wait = jittered(
      exponential(attempts, this.#o.backoffBaseMs ?? 1000, this.#o.backoffMaxMs ?? 300_000),
      {
        ratio: 0.1,
        random: this.#o.random,
        min: 0,
      },
    );
    await this.#retry(group, now + wait);
    const conversation = await this.#o.conversationOf(lead.item);
    if (conversation !== undefined) this.#holds.set(conversation, { id: lead.id, until: now + wait });
    logger.warn({ ...context, attempts, waitMs: wait }, 'chat delivery failed; will retry');
    metrics?.delivery(platform, lead.item.op, 'retry');
    return 'retry';
  }

  async #retry(
    group: OutboxItem[],
    notBefore: number,
    options: { countAttempt?: boolean } = {},
  ): Promise<void> {
    const { store } = this.#o;
    await store.transaction(async () => {
      for (const item of group) {
        if (options.countAttempt === false) await store.outbox.postpone(item.id, notBefore, item.claim);
        else await store.outbox.retry(item.id, notBefore, item.claim);
      }
    });
  }

  /**
   * Memory only: after a restart, a later item may overtake one still backing off (the platform pause of a
   * 429 is kept on the rows themselves).
   */
  heldBack(conversation: string, id: number, now: number): boolean {
    const hold = this.#holds.get(conversation);
    if (!hold) return false;
    if (hold.until <= now) {
      this.#holds.delete(conversation);
      return false;
    }
    return id > hold.id;
  }

  paused(platform: ChatPlatform, now: number): boolean {
    return (this.#pausedUntil.get(platform) ?? 0) > now;
  }
}
