/**
 * What every outbox sender test builds on: a fresh TestClock, store, logger and fake Slack sender per test on
 * each store of STORES (the exported bindings are live, so a test reads the ones its own beforeEach made), a
 * sender wired to them, and the cards a test posts, edits and replies to through the store.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import { editCard, postCard, replyToCard } from '../../src/core/live/live-card.js';
import { OutboxSender, type OutboxSenderOptions } from '../../src/poller/outbox-sender.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { CONV, card, FakeChatSender, recordingLogger, STORES, T0 } from './support.js';

export const CONV2 = 'slack:T1:C2';
export const DISCORD = 'discord:G1:C9';

export let clock: TestClock;
export let store: SqliteStore;
export let logger: ReturnType<typeof recordingLogger>;
export let slack: FakeChatSender;

export function sender(options: Partial<OutboxSenderOptions> = {}): OutboxSender {
  return new OutboxSender({ store, senders: { slack }, clock, logger, random: () => 0.5, ...options });
}

export const post = async (key: string, title: string, conversation = CONV, threadOfCard?: string) =>
  await store.transaction(
    async () =>
      await postCard(store, {
        key,
        conversation,
        card: card(title),
        ...(threadOfCard === undefined ? {} : { threadOfCard }),
      }),
  );
export const edit = async (key: string, title: string, text: string) =>
  await store.transaction(() =>
    editCard(store, key, { card: card(title, text), dedupeKey: `${key}:${text}` }),
  );
export const reply = async (key: string, title: string, dedupeKey = `${key}:${title}`) =>
  await store.transaction(() => replyToCard(store, { key, card: card(title), dedupeKey, threaded: true }));

/** Runs `suite` once on each store of STORES, each test on a fresh clock, store, logger and Slack sender. */
export function onEachStore(suite: () => void): void {
  describe.each(STORES)('on the $name store', (fixture) => {
    let opened: ReturnType<(typeof STORES)[number]['open']>;
    beforeEach(() => {
      clock = new TestClock(T0);
      opened = fixture.open(clock);
      store = opened.store;
      logger = recordingLogger();
      slack = new FakeChatSender('slack', clock);
    });
    afterEach(() => opened.close());

    suite();
  });
}
