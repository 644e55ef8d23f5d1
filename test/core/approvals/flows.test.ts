/**
 * Approval paths beyond the shared scenarios, on the core harness: the approver's key and the stored
 * idempotency key (a retry after a lost response posts once), spend approvals for series (402 then Retry,
 * series create), the expiry watch closed early, refusals when nobody can approve, and audit details.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalWatcher } from '../../../src/core/approvals/expiry-watcher.js';
import { csvCell } from '../../../src/core/audit/rows.js';
import { MODULES } from '../../../src/core/commands/index.js';
import { createBot } from '../../../src/core/dispatch/bot.js';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import type { Card, Control, Response } from '../../../src/core/text/cards.js';
import { toPlainText } from '../../../src/core/text/text.js';
import { type VideoApi, VideoApiError } from '../../../src/core/video-api/video-api.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';

/** A card's words as a member reads them: mention tokens as `@name`, escaped characters as themselves. */
const plain = (r: Response): string => toPlainText(textOf(r));

const BOB_KEY = 'fl_live_bob_own_key_of_the_demo_team_0123';
const HOUR = 3600_000;

let h: Harness;
let alice: RequestInfo;
let bob: RequestInfo;
let carol: RequestInfo;
beforeEach(async () => {
  h = await createHarness();
  h.sim.sim.addKey(DEMO_KEY, BOB_KEY);
  alice = await h.user('alice');
  bob = await h.user('bob', { key: BOB_KEY });
  carol = await h.user('carol');
});
afterEach(() => h.close());

async function settings(...lines: string[]) {
  // Approvals can be switched on only once an admin role is set: alice is the channel's admin.
  if ((await h.store.settings.get(h.conversation)).roles.admin.length === 0)
    lines.unshift('role admin @alice');
  for (const line of lines) expect(textOf(await h.run(`settings ${line}`, alice))).toContain('updated');
}

const cardOf = (r: Response): Card => {
  if (r.kind !== 'message' && r.kind !== 'update') throw new Error(`no card: ${JSON.stringify(r)}`);
  return r.card;
};
const buttonOf = (card: Card | undefined, action: string) => {
  const all: Control[] = [
    ...(card?.controls ?? []),
    ...(card?.sections ?? []).flatMap((s) => s.controls ?? []),
  ];
  const b = all.find((c) => c.kind === 'button' && c.action === action);
  if (b?.kind !== 'button') throw new Error(`no ${action} on ${JSON.stringify(card)}`);
  return b;
};
const approvalCard = () => {
  const cards = h.chat.channelMessages.filter((m) =>
    /^(Approval needed|Approved|Rejected|Expired|Withdrawn)/.test(m.card.title),
  );
  return cards[cards.length - 1]?.card;
};
const approvalId = () => buttonOf(approvalCard(), 'approval.approve').value;

async function rendered(name: string): Promise<string> {
  const id = await completedVideo(h, name, { render: true });
  await h.deps
    .apiFor(DEMO_KEY)
    .videos.update(id, { posts: { youtube: { title: name, privacyStatus: 'public' } } });
  return id;
}

describe('running an approved action', () => {
  it('uses the approver’s key and the request’s stored idempotency key; a retry after a lost response posts once', async () => {
    const id = await rendered('Lost answer');
    await settings('approval publish', 'approvers @bob @carol');
    const calls: { key: string; idempotencyKey: string | undefined }[] = [];
    const original = h.deps.apiFor;
    h.deps.apiFor = (key) => {
      const api = original(key);
      const publish = api.posts.publish.bind(api.posts);
      return {
        ...api,
        posts: {
          ...api.posts,
          publish: async (...args: Parameters<VideoApi['posts']['publish']>) => {
            calls.push({ key, idempotencyKey: args[1]?.idempotencyKey });
            const result = await publish(...args);
            // The service published, but the answer never arrived.
            if (calls.length === 1) throw new VideoApiError('connection_error', 'socket hang up');
            return result;
          },
        },
      } as VideoApi;
    };
    await h.run(`publish ${id} youtube`, alice);
    const approval = await h.store.approvals.get(approvalId());
    const failed = await h.click('approval.approve', approval?.id ?? '', bob);
    expect(cardOf(failed).title).toBe('Approved, but it did not go through');
    expect(approvalCard()?.title).toMatch(/^Approved, not done: /);
    expect(calls).toEqual([{ key: BOB_KEY, idempotencyKey: approval?.action.idempotencyKey }]);

    // Another approver would send with another key, which the service does not match to the first attempt.
    const other = await h.click('approval.retry', buttonOf(approvalCard(), 'approval.retry').value, carol);
    expect(plain(other)).toContain('Only @bob, who approved it, can retry');
    expect(calls).toHaveLength(1);
    const retried = await h.click('approval.retry', buttonOf(approvalCard(), 'approval.retry').value, bob);
    expect(cardOf(retried).title).toBe('Approved · Published to YouTube');
    expect(calls[1]).toEqual({ key: BOB_KEY, idempotencyKey: approval?.action.idempotencyKey });
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
    expect(approvalCard()?.title).toMatch(/^Approved: /);
    expect(textOf(await h.click('approval.retry', approval?.id ?? '', bob))).toContain(
      'already went through',
    );
    expect(h.chat.notices.map((n) => n.card.title)).toEqual(['Approved, but not done', 'Approved']);
    const actions = (await h.store.audit.list({ workspacePrefix: 'playground:W1', videoId: id })).map(
      (e) => e.action,
    );
    expect(actions.reverse()).toEqual([
      'approval.request',
      'approval.approve',
      'approval.fail',
      'approval.retry',
      'video.publish',
    ]);
  });

  it('series generate above the threshold: a 402 after approval leaves Retry, which then charges once', async () => {
    const cost = cardOf(
      await h.run('series create "Night Terrors" --source ai_story --model motion_lite --time 21:00', alice),
    );
    await h.click('series.create.confirm', buttonOf(cost, 'series.create.confirm').value, alice);
    await settings('approval spend', 'spend-threshold 30', 'approvers @bob');
    const ask = cardOf(await h.run('series generate night', alice));
    const confirm = buttonOf(ask, 'series.generate.confirm');
    expect(confirm.label).toBe('Request approval (50 credits)');
    const sent = await h.click('series.generate.confirm', confirm.value, alice);
    expect(sent.kind).toBe('update');
    expect(cardOf(sent).title).toBe('Sent for approval');
    expect(approvalCard()?.title).toBe(
      'Approval needed: Generate an episode of “Night Terrors” now (50 credits)',
    );
    const spends = () =>
      h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0 && e.description !== 'drained');
    const before = spends().length;

    h.sim.sim.grantCredits(DEMO_KEY, -(h.sim.sim.balance(DEMO_KEY) - 10), 'drained');
    const poor = await h.click('approval.approve', approvalId(), bob);
    expect(textOf(poor)).toContain('Not enough credits: this costs 50 and your team has 10.');
    expect(spends()).toHaveLength(before);

    h.sim.sim.grantCredits(DEMO_KEY, 100);
    const retry = buttonOf(approvalCard(), 'approval.retry');
    const [a, b] = await Promise.all([
      h.click('approval.retry', retry.value, bob),
      h.click('approval.retry', retry.value, bob),
    ]);
    expect([cardOf(a).title, cardOf(b).title].sort()).toEqual([
      expect.stringMatching(/^Approved · Generating “Night Terrors/),
      'Nothing to do',
    ]);
    expect(spends()).toHaveLength(before + 1);
    const generated = (await h.store.audit.list({ workspacePrefix: 'playground:W1' })).find(
      (e) => e.action === 'series.generate',
    );
    expect(generated).toMatchObject({ actor: bob.user, credits: 50 });
  });

  it('series create above the threshold waits, then is created once by the approver', async () => {
    await settings('approval spend', 'spend-threshold 30', 'approvers @bob');
    const ask = cardOf(
      await h.run(
        'series create "Money Minute" --source news --niche personal_finance --days mon,wed,fri --time 08:30 --model motion_lite',
        alice,
      ),
    );
    const confirm = buttonOf(ask, 'series.create.confirm');
    expect(confirm.label).toBe('Request approval (50 credits)');
    expect(await h.deps.apiFor(DEMO_KEY).series.list()).toEqual([]);
    const sent = await h.click('series.create.confirm', confirm.value, alice);
    expect(cardOf(sent).title).toBe('Sent for approval');
    expect(await h.deps.apiFor(DEMO_KEY).series.list()).toEqual([]);
    const approved = await h.click('approval.approve', approvalId(), bob);
    expect(cardOf(approved).title).toBe('Approved · Series created: Money Minute');
    expect(await h.deps.apiFor(DEMO_KEY).series.list()).toHaveLength(1);
    expect((await h.store.audit.list({ workspacePrefix: 'playground:W1' })).map((e) => e.action)).toContain(
      'series.create',
    );
  });
});

describe('who can approve', () => {
  it('`settings` shows the approval policy, approvers, self-approval, threshold and roles', async () => {
    await settings(
      'approval spend',
      'approvers @bob @carol',
      'self-approval on',
      'spend-threshold 80',
      'role publish @alice @bob',
    );
    const shown = plain(await h.run('settings', carol));
    expect(shown).toContain(
      'Approval: spend — publishing, scheduling and creations over 80 credits need an approver',
    );
    expect(shown).toContain('Approvers: @bob, @carol');
    expect(shown).toContain('Self-approval: allowed');
    expect(shown).toContain('Spend threshold: 80 credits');
    expect(shown).toContain('publish: @alice, @bob');
  });

  it('refuses to ask when nobody could approve', async () => {
    const id = await rendered('Nobody');
    await settings('approval publish');
    expect(textOf(await h.run(`publish ${id} youtube`, alice))).toContain('nobody is one yet');
    await settings('approvers @alice');
    expect(textOf(await h.run(`publish ${id} youtube`, alice))).toContain('You are the only approver');
    expect(h.chat.channelMessages).toEqual([]);
    expect(h.sim.sim.publishedPosts()).toEqual([]);
  });

  it('asking twice for the same thing finds the pending request instead of posting a second card', async () => {
    const id = await rendered('Twice');
    await settings('approval publish', 'approvers @bob');
    await h.run(`publish ${id} youtube`, alice);
    expect(textOf(await h.run(`publish ${id} youtube`, alice))).toContain('Already waiting for approval');
    expect(h.chat.channelMessages.filter((m) => m.card.title.startsWith('Approval needed'))).toHaveLength(1);
  });
});

describe('reschedule', () => {
  it('warns in the form that the new time needs approval again and replaces the request', async () => {
    const id = await rendered('Moved');
    await settings('approval publish', 'approvers @bob');
    await h.run(`schedule ${id} youtube tomorrow 9am`, alice);
    const opened = await h.click('approval.reschedule', approvalId(), alice);
    if (opened.kind !== 'form') throw new Error(`expected the form, got ${textOf(opened)}`);
    expect(opened.form.alert).toEqual({
      level: 'warning',
      text: 'The new time needs approval again: this request is replaced by the new one.',
    });
    expect(opened.form.intro).toBe('A new time for **Schedule “Moved” on YouTube**.');
  });
});

describe('reschedule into a clash', () => {
  it('asks again at once, without a clash warning, and replaces the request: one request waits', async () => {
    const id = await rendered('Clashing');
    const other = await rendered('Already there');
    await h.deps.apiFor(DEMO_KEY).posts.schedule(
      {
        videoId: other,
        platforms: ['youtube'],
        scheduledTime: new Date(h.clock.now() + 2 * 86_400_000).toISOString(),
      },
      { idempotencyKey: 'flows-clash' },
    );
    await settings('approval publish', 'approvers @bob');
    await h.run(`schedule ${id} youtube tomorrow 9am`, alice);
    const first = approvalId();
    const opened = await h.click('approval.reschedule', first, alice);
    if (opened.kind !== 'form') throw new Error(`expected the form, got ${textOf(opened)}`);
    // The same minute as the other video's YouTube post: a clash, not warned on this path.
    const at = new Date(h.clock.now() + 2 * 86_400_000).toISOString().slice(0, 16).replace('T', ' ');
    const r = await h.submit(opened.form.id, opened.form.state, { when: `${at} UTC` }, alice);
    expect(textOf(r)).toContain('Sent for approval');
    expect((await h.store.approvals.get(first))?.status).toBe('expired');
    const pending = await h.store.approvals.pendingIn('playground:W1');
    expect(pending.map((a) => a.id)).not.toContain(first);
    expect(pending).toHaveLength(1);
  });
});

describe('unschedule', () => {
  it('withdraws a schedule still waiting for approval, so nobody can approve it afterwards', async () => {
    const id = await rendered('Withdrawn');
    await settings('approval publish', 'approvers @bob');
    await h.run(`schedule ${id} youtube tomorrow 9am`, alice);
    const approval = approvalId();
    const r = await h.run(`unschedule ${id}`, alice);
    expect(cardOf(r).title).toBe('Request withdrawn');
    await h.flush();
    expect(approvalCard()?.title).toBe('Withdrawn: Schedule “Withdrawn” on YouTube');
    expect(approvalCard()?.controls).toBeUndefined();
    expect(plain(await h.click('approval.approve', approval, bob))).toContain('Already withdrawn by @alice');
    expect(textOf(await h.click('approval.reschedule', approval, alice))).toContain('Already withdrawn');
    const calendar = await h.deps
      .apiFor(DEMO_KEY)
      .posts.calendar({ startDate: '2026-11-23', endDate: '2026-11-30' });
    expect(calendar).toEqual([]);
    expect(await h.store.watches.findActive('approval', approval)).toBeUndefined();
  });
});

describe('the expiry watch', () => {
  it('closed early (the poller gave up on the owner’s key) keeps a watch for the real time', async () => {
    const id = await rendered('Early');
    await settings('approval publish', 'approvers @bob');
    await h.run(`schedule ${id} youtube in 3 hours`, alice);
    const approval = await h.store.approvals.get(approvalId());
    const watch = await h.store.watches.findActive('approval', approval?.id ?? '');
    // It first looks at the half-life reminder (reminders.ts); it ends at the scheduled time.
    expect(watch).toMatchObject({
      nextCheckAt: (approval?.createdAt ?? 0) + 1.5 * HOUR,
      expiresAt: approval?.expiresAt,
    });
    await h.store.transaction(async () => {
      await approvalWatcher.expire({
        store: h.store,
        watch: watch as NonNullable<typeof watch>,
        now: h.clock.now(),
        reason: 'revoked',
      });
      await h.store.watches.update(watch?.id ?? '', { status: 'expired' });
    });
    expect((await h.store.approvals.get(approval?.id ?? ''))?.status).toBe('pending');
    expect((await h.store.watches.findActive('approval', approval?.id ?? ''))?.id).not.toBe(watch?.id);

    // Unlinking the key does not matter: expiry needs no API call.
    await h.store.keys.delete(alice.user);
    await h.advance(3 * HOUR + 1000);
    expect((await h.store.approvals.get(approval?.id ?? ''))?.status).toBe('expired');
    expect(h.chat.notices.map((n) => n.card.title)).toEqual(['Approval expired']);
  });

  it('a click after the time but before the poller expires it instead of approving', async () => {
    const id = await rendered('Between');
    await settings('approval publish', 'approvers @bob');
    await h.run(`schedule ${id} youtube in 1 hour`, alice);
    const approval = approvalId();
    h.clock.advance(HOUR + 1000);
    expect(textOf(await h.click('approval.approve', approval, bob))).toContain('Already expired');
    await h.flush();
    expect(approvalCard()?.title).toMatch(/^Expired: /);
    expect(h.chat.notices).toHaveLength(1);
  });
});

describe('audit', () => {
  it('CSV cells are always quoted and never start a formula', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
  });

  it('lists a deleted video by id, refuses a reversed range, and keeps other channels out', async () => {
    const id = await rendered('Gone');
    await h.run(`publish ${id} youtube`, alice);
    const confirm = buttonOf(cardOf(await h.run(`delete ${id}`, alice)), 'video.delete.confirm');
    await h.click('video.delete.confirm', confirm.value, alice);
    const log = textOf(await h.run(`audit --video ${id}`, alice));
    expect(log).toContain('2 entries in this channel');
    // The service forgot the video; the audit still names it, on every line about it.
    expect(log).toContain('deleted “Gone”');
    expect(log).toContain('published “Gone” to YouTube');
    expect(log).toContain(`for the deleted video \`${id}\``);
    expect(textOf(await h.run('audit --from 2026-11-20 --to 2026-11-10', alice))).toContain('is before');
    const elsewhere = { ...carol, conversation: 'playground:W1:C10' };
    expect(textOf(await h.run('audit', elsewhere))).toContain('Nothing recorded in this channel');
  });
});

describe('a member of another organisation in a shared channel (Slack Connect)', () => {
  it('decides nothing unless REELBOT_WORKSPACES allows their organisation', async () => {
    const id = await rendered('Guest decision');
    await settings('approval publish', 'approvers @bob @carol');
    expect(textOf(await h.run(`publish ${id} youtube`, alice))).toContain('Sent for approval');
    const guest = { ...bob, externalOrg: 'slack:T0GUEST' };
    const refused = await h.click('approval.approve', approvalId(), guest);
    expect(textOf(refused)).toContain('your organisation is a guest in this shared channel');
    expect(h.sim.sim.publishedPosts()).toEqual([]);
    expect(approvalCard()?.title).toMatch(/^Approval needed/);

    // Allowed by the deployment: the same member decides.
    const allowed = createBot(
      { ...h.deps, deploymentKeyWorkspaces: ['playground:W1', 'slack:T0GUEST'] },
      MODULES,
    );
    const approved = await allowed.handleAction(guest, { action: 'approval.approve', value: approvalId() });
    await h.flush();
    expect(textOf(approved)).not.toContain('guest');
    expect(approvalCard()?.title).toMatch(/^Approved/);
  });
});
