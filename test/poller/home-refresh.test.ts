/**
 * Dashboard refreshes through the outbox: a change queues a `refresh-home` row for each member of its
 * workspace who opened their Home (and only them); the sender waits for a burst to end, then refreshes each
 * member once however many changes there were; a platform without a Home completes the rows unsent; a failed
 * refresh is retried like any delivery.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOME_VIEWER_TTL_MS, homeOpened, refreshHomes } from '../../src/core/home/home-refresh.js';
import { editCard, postCard } from '../../src/core/live/live-card.js';
import { ChatDeliveryError, type UserAddress } from '../../src/core/ports/index.js';
import { DEFAULT_HOME_REFRESH_DELAY_MS, OutboxSender } from '../../src/poller/outbox-sender.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { CONV, card, FakeChatSender, recordingLogger, STORES, T0 } from './support.js';

const ALICE = 'slack:T1:UALICE';
const BOB = 'slack:T1:UBOB';
const CAROL = 'slack:T2:UCAROL';

let clock: TestClock;
let store: SqliteStore;
let opened: ReturnType<(typeof STORES)[number]['open']>;

/** A Slack sender that records the Homes it refreshed (and can fail the next ones). */
class HomeSender extends FakeChatSender {
  readonly homes: UserAddress[] = [];
  failures = 0;
  refreshHome(user: UserAddress): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      return Promise.reject(new ChatDeliveryError('views.publish failed', true));
    }
    this.homes.push(user);
    return Promise.resolve();
  }
}

describe.each(STORES)('on the $name store', (fixture) => {
  let slack: HomeSender;
  let sender: OutboxSender;
  beforeEach(async () => {
    clock = new TestClock(T0);
    opened = fixture.open(clock);
    store = opened.store;
    slack = new HomeSender('slack', clock);
    sender = new OutboxSender({
      store,
      senders: { slack },
      clock,
      logger: recordingLogger(),
      random: () => 0.5,
    });
    for (const user of [ALICE, BOB, CAROL])
      await homeOpened(store, { user, conversation: `${user.replace(/:U\w+$/, '')}:D${user.slice(-3)}` });
    await store.transaction(() => postCard(store, { key: 'k', conversation: CONV, card: card('A') }));
    await sender.drain();
    clock.advance(DEFAULT_HOME_REFRESH_DELAY_MS);
    await sender.drain();
    slack.homes.length = 0;
  });
  afterEach(() => opened.close());

  it('refreshes each viewer of the workspace once for a burst of changes, after the burst', async () => {
    for (const text of ['one', 'two', 'three']) {
      await store.transaction(() => editCard(store, 'k', { card: card('A', text), dedupeKey: text }));
      clock.advance(200);
      await sender.drain();
    }
    // The card's edits went out; the Homes wait for the burst to end.
    expect(slack.homes).toEqual([]);
    clock.advance(DEFAULT_HOME_REFRESH_DELAY_MS);
    await sender.drain();
    // Carol is in another workspace: not hers to refresh.
    expect(slack.homes.sort()).toEqual([ALICE, BOB]);
    expect(await store.outbox.depth()).toBe(0);
  });

  it('refreshes a member who opened their Home after their link; a member who never did, nobody', async () => {
    await store.transaction(async () => {
      await refreshHomes(store, { users: [ALICE, 'slack:T1:UNEVER'], cause: 'link:1' });
      // The same change again (a retry) queues nothing more.
      await refreshHomes(store, { users: [ALICE], cause: 'link:1' });
    });
    expect(await store.outbox.depth()).toBe(1);
    clock.advance(DEFAULT_HOME_REFRESH_DELAY_MS);
    await sender.drain();
    expect(slack.homes).toEqual([ALICE]);
  });

  it('forgets viewers who have not opened their Home for a month', async () => {
    clock.advance(HOME_VIEWER_TTL_MS);
    await homeOpened(store, { user: BOB, conversation: 'slack:T1:DBOB' });
    await store.transaction(() => refreshHomes(store, { where: [CONV], cause: 'c', now: clock.now() }));
    clock.advance(DEFAULT_HOME_REFRESH_DELAY_MS);
    await sender.drain();
    expect(slack.homes).toEqual([BOB]);
  });

  it('retries a refresh Slack failed, and completes refreshes unsent where the platform has no Home', async () => {
    slack.failures = 1;
    await store.transaction(() => refreshHomes(store, { users: [ALICE], cause: 'x' }));
    clock.advance(DEFAULT_HOME_REFRESH_DELAY_MS);
    await sender.drain();
    expect(slack.homes).toEqual([]);
    clock.advance(60_000);
    await sender.drain();
    expect(slack.homes).toEqual([ALICE]);

    const plain = new FakeChatSender('slack', clock);
    const without = new OutboxSender({
      store,
      senders: { slack: plain },
      clock,
      logger: recordingLogger(),
      random: () => 0.5,
    });
    await store.transaction(() => refreshHomes(store, { users: [BOB], cause: 'y' }));
    clock.advance(DEFAULT_HOME_REFRESH_DELAY_MS);
    await without.drain();
    expect(await store.outbox.depth()).toBe(0);
    expect(plain.calls).toEqual([]);
  });
});
