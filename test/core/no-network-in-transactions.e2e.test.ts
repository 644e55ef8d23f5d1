/**
 * No transaction waits on the network (the `Store` port's rule): while real flows run end to
 * end (the approval scenario table on the core harness, a video's whole life, series, the poller and the
 * outbox sender), every network call the core makes (video API, chat delivery, file links, membership) is
 * checked against the transactions open in its async context (test/support/transaction-guard.ts).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../src/core/dispatch/context.js';
import {
  ChatDeliveryError,
  type ConversationMembership,
  type FileLinks,
} from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import { forgetWorkspace } from '../../src/core/workspace/forget-workspace.js';
import { cardText, createHarness, DEMO_KEY, type Harness, textOf } from '../support/harness.js';
import { TransactionGuard } from '../support/transaction-guard.js';
import { createCoreDriver } from './approvals/core-driver.js';
import { defineApprovalSuite } from './approvals/scenarios.js';
import { confirmed, idFrom as seriesIdFrom } from './series/helpers.js';
import { button, buttons, card, idFrom, liveCard, MINUTE } from './videos/helpers.js';

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the transaction guard itself', () => {
  let guard: TransactionGuard;
  let h: Harness;
  beforeEach(async () => {
    guard = new TransactionGuard();
    h = await createHarness({ guard });
  });
  afterEach(() => h.close());

  const calls = () => guard.violations.map((v) => v.call);

  it('catches a video API call, a chat post and a file read made inside a transaction, nested ones too', async () => {
    const api = h.deps.apiFor(DEMO_KEY);
    const sender = h.senders.playground;
    const files = guard.fileLinks({ read: async () => ({ name: 'script.txt', text: 'A script.' }) });
    await h.store.transaction(async (tx) => {
      await tx.users.setLast('playground:W1:alice', 'video', 'v1');
      await api.credits.get();
      await tx.transaction(async () => {
        await sender?.post(h.conversation, { title: md`Inside` }, { dedupeId: 'd1' });
      });
      await files.read('https://files.example/script.txt', { accept: ['text/plain'], maxLength: 100 });
    });
    expect(calls()).toEqual([
      'video API GET /api/v1/credits',
      `chat post to ${h.conversation}`,
      'file link read https://files.example/script.txt',
    ]);
    // Each names where it was made and where its transaction was opened: this very test.
    for (const v of guard.violations) {
      expect(v.stack).toContain('no-network-in-transactions.e2e.test.ts');
      expect(v.transaction).toContain('no-network-in-transactions.e2e.test.ts');
    }
    expect(() => guard.assertNone()).toThrow(/3 network call\(s\) made while a store transaction was open/);
    expect(() => guard.assertNone()).toThrow(/1\. video API GET \/api\/v1\/credits/);
  });

  it('catches the outbox sender and the poller when they are driven from inside a transaction', async () => {
    const alice = await h.user('alice');
    const confirm = card(await h.run('create --model motion_lite Ten seconds about the moon.', alice));
    const value = button(confirm, 'video.create.confirm').value;
    // Straight to the bot (not `h.click`): the live card's post stays in the outbox for the drain below.
    await h.bot.handleAction(alice, { action: 'video.create.confirm', value });
    expect(guard.violations).toEqual([]);
    h.clock.advance(MINUTE);
    await h.store.transaction(async () => {
      await h.sender.drain();
      await h.poller.tick();
    });
    expect(calls()).toContain(`chat post to ${h.conversation}`);
    expect(calls().some((c) => c.startsWith('video API GET /api/v1/videos/'))).toBe(true);
  });

  it('lets through calls outside transactions: before, after, from another flow, and once it has ended', async () => {
    const api = h.deps.apiFor(DEMO_KEY);
    await api.credits.get();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let committed!: () => void;
    const afterCommit = new Promise<void>((resolve) => (committed = resolve));
    let later: Promise<unknown> = Promise.resolve();
    const transaction = h.store.transaction(async (tx) => {
      await tx.users.setLast('playground:W1:alice', 'video', 'v1');
      // Started inside, calling only after the commit: the transaction never waits on it.
      later = (async () => {
        await afterCommit;
        await api.me.get();
      })();
      await held;
    });
    // Another async flow's call while the transaction is open holds nothing.
    await api.credits.get();
    release();
    await transaction;
    committed();
    await later;
    await api.credits.get();
    expect(guard.violations).toEqual([]);
    expect(guard.counts.networkCalls).toBe(4);
    expect(guard.counts.transactions).toBe(1);
  });
});

// ——— the approval scenario table, every transaction guarded ———

describe('approvals', () => {
  const seen = { scenarios: 0, transactions: 0, networkCalls: 0 };
  defineApprovalSuite('the core harness, no network call inside a transaction', async (profile) => {
    const guard = new TransactionGuard();
    const d = await createCoreDriver({ profile, guard });
    return {
      ...d,
      async close() {
        await d.close();
        seen.scenarios++;
        seen.transactions += guard.counts.transactions;
        seen.networkCalls += guard.counts.networkCalls;
        guard.assertNone();
      },
    };
  });
  afterAll(() => {
    // The guard was in the flows: they ran transactions and made network calls through it.
    if (seen.scenarios === 0) return;
    expect(seen.transactions).toBeGreaterThan(seen.scenarios);
    expect(seen.networkCalls).toBeGreaterThan(seen.scenarios);
  });
});

// ——— a video's whole life, series, the dashboard, with the poller and the outbox sender ———

describe('create → watch → pick → render → schedule → publish → series, every transaction guarded', () => {
  let guard: TransactionGuard;
  let h: Harness;
  beforeEach(async () => {
    guard = new TransactionGuard();
    h = await createHarness({ guard });
  });
  afterEach(async () => {
    await h.close();
    guard.assertNone();
  });

  it('makes no network call while a transaction is open', async () => {
    const files: FileLinks = guard.fileLinks({
      read: async () => ({
        name: 'octopus.txt',
        text: 'Octopuses have three hearts and blue blood, and each arm can taste what it touches.',
      }),
    });
    const conversations: ConversationMembership = guard.membership({ isMember: async () => true });
    const alice: RequestInfo = {
      ...(await h.user('alice', { timeZone: 'Europe/Paris' })),
      files,
      conversations,
    };

    // Create from a shared file, confirm the cost, and follow generation on the live card.
    const confirm = card(
      await h.run(
        'create --model motion_lite --name "Octopus facts" --from-file https://f/octopus.txt',
        alice,
      ),
    );
    const creating = card(
      await h.click('video.create.confirm', button(confirm, 'video.create.confirm').value),
    );
    const id = idFrom(creating);
    const live = liveCard(h, id);
    await h.until(() => (live.card.sections?.length ?? 0) === 3, { stepMs: 5_000, maxMs: 20 * MINUTE });

    // Pick a thumbnail on the card, rename, render.
    const third = button({ title: md``, sections: [live.card.sections?.[2] ?? {}] }, 'thumbnail.pick').value;
    expect(textOf(await h.click('thumbnail.pick', third, { ...alice, message: live.message }))).toContain(
      'now uses option 3',
    );
    expect(textOf(await h.run(`rename ${id} Octopus facts, final`, alice))).toContain('Octopus facts, final');
    await h.click('video.render', button(live.card, 'video.render').value, alice);
    await h.until(() => live.card.video !== undefined, { stepMs: 5_000, maxMs: 10 * MINUTE });

    // Schedule, move it, unschedule, schedule again and let the poller see it go out.
    await h.deps.apiFor(DEMO_KEY).videos.update(id, { posts: { youtube: { title: 'Octopus facts' } } });
    expect(card(await h.run('schedule last youtube tomorrow 9am', alice)).title).toBe('Scheduled');
    expect(textOf(await h.run('reschedule last tomorrow 11am', alice))).toContain('11:00');
    expect(textOf(await h.run('unschedule last', alice))).toContain('YouTube');
    expect(card(await h.run('schedule last youtube tomorrow 9am', alice)).title).toBe('Scheduled');
    await h.until(async () => (await h.store.watches.findActive('schedule', id)) === undefined, {
      stepMs: HOUR,
      maxMs: 3 * DAY,
    });
    expect(h.sim.sim.publishedPosts().map((p) => p.platform)).toEqual(['youtube']);
    expect(textOf(await h.run('unschedule last', alice))).toContain('Too late to cancel');

    // Publish now elsewhere; subscribe the channel; the dashboard (membership asked) and status.
    expect(card(await h.run('publish last tiktok', alice)).title).toBe('Published to TikTok');
    await h.run('subscribe calendar', alice);
    const home = await h.run('home', alice);
    expect(home.kind).toBe('message');
    expect(textOf(await h.run('unsubscribe calendar', alice))).toContain('calendar');
    expect(textOf(await h.run('status last', alice))).toContain('Octopus facts, final');

    // A series: created (cost confirmed), its first episode generated and watched, paused, deleted.
    const created = await confirmed(
      h,
      h.run('series create "Night Terrors" --source ai_story --model motion_lite', alice),
      alice,
    );
    const seriesId = seriesIdFrom(created);
    await h.until(
      async () =>
        (await h.store.watches.active()).filter((w) => w.kind === 'generation').length === 0 &&
        (await h.deps.apiFor(DEMO_KEY).series.episodes(seriesId)).items.length > 0,
      { stepMs: 5_000, maxMs: 20 * MINUTE },
    );
    await h.run('unsubscribe series night', alice);
    expect(textOf(await h.run('subscribe series night', alice))).toContain('Night Terrors');
    expect(textOf(await h.run('series pause night', alice))).toContain('Paused');
    const ask = await h.run('series delete night', alice);
    expect(
      textOf(await h.click('series.delete.confirm', button(card(ask), 'series.delete.confirm').value, alice)),
    ).toContain('Deleted series “Night Terrors”');

    // Delete the video: the question, the click, the tombstoned card.
    const del = card(await h.run(`delete ${id}`, alice));
    await h.click('video.delete.confirm', button(del, 'video.delete.confirm').value, alice);
    expect(buttons(live.card)).toEqual([]);

    // The flows did run transactions, and their calls passed the guard.
    expect(guard.counts.transactions).toBeGreaterThan(50);
    expect(guard.counts.networkCalls).toBeGreaterThan(50);
  });

  it('nor when the platform refuses or fails a delivery, the service fails looks, or the workspace goes', async () => {
    const alice = await h.user('alice');
    // The channel refuses the card for good: the requester is told privately; `status` then posts it.
    const ask = card(await h.run('create --name Octopus Octopuses have three hearts and blue blood.', alice));
    h.chat.failures.push(new ChatDeliveryError('not_in_channel', false));
    const id = idFrom(card(await h.click('video.create.confirm', button(ask, 'video.create.confirm').value)));
    expect(h.chat.notices.map((n) => n.user)).toEqual([alice.user]);
    expect(textOf(await h.run(`status ${id}`, alice))).toContain('I posted a status card in this channel');
    const live = liveCard(h, id);

    // The service fails every look for a while (the card says so), then recovers.
    h.sim.sim.setKnobs({ serverErrorRate: 1 });
    await h.until(() => cardText(live.card).includes('still trying'), {
      stepMs: 15_000,
      maxMs: 30 * MINUTE,
    });
    h.sim.sim.setKnobs({ serverErrorRate: 0 });

    // The platform is briefly unavailable: deliveries are retried.
    h.chat.failures.push(new ChatDeliveryError('rate limited', true, 1_000));
    h.chat.failures.push(new ChatDeliveryError('service unavailable', true));
    await h.until(() => live.card.tone === 'success', { stepMs: 5_000, maxMs: 20 * MINUTE });

    // The workspace removes the app: its watches end and its rows go.
    await forgetWorkspace(h.store, { workspaces: ['playground:W1'], installations: [], now: h.clock.now() });
    expect(await h.store.watches.active()).toEqual([]);
    expect(guard.counts.transactions).toBeGreaterThan(20);
  });
});
