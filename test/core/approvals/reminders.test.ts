/**
 * Approval reminders (DESIGN §5) on the core harness, both simulator profiles: a pending request's approvers
 * are mentioned in its card's thread once at half its lifetime and once an hour before it expires, on the
 * injected clock, and never again however long the poller keeps looking.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import type { SimulatorProfile } from '../../../src/simulator/index.js';
import type { PostedMessage } from '../../support/fake-chat.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const profile of ['spec', 'real'] as const satisfies readonly SimulatorProfile[]) {
  describe(`approval reminders (${profile} profile)`, () => {
    let h: Harness;
    let alice: RequestInfo;
    let bob: RequestInfo;
    let carol: RequestInfo;
    beforeEach(async () => {
      h = await createHarness({ simulator: { profile } });
      alice = await h.user('alice');
      bob = await h.user('bob');
      carol = await h.user('carol');
    });
    afterEach(() => h.close());

    async function settings(...lines: string[]) {
      for (const line of ['role admin @alice', ...lines])
        expect(textOf(await h.run(`settings ${line}`, alice))).toContain('updated');
    }

    async function rendered(name: string): Promise<string> {
      const id = await completedVideo(h, name, { render: true });
      await h.deps
        .apiFor(DEMO_KEY)
        .videos.update(id, { posts: { youtube: { title: name, privacyStatus: 'public' } } });
      return id;
    }

    const requestCard = (): PostedMessage => {
      const card = h.chat.channelMessages.find((m) =>
        /^(Approval needed|Approved|Expired): /.test(m.card.title),
      );
      if (!card) throw new Error('no approval card');
      return card;
    };
    const reminders = () =>
      h.chat.repliesTo(requestCard().message).filter((m) => m.card.title === 'Reminder: approval needed');

    it('mentions the approvers in the thread at half its lifetime and an hour before expiry, each once', async () => {
      const id = await rendered('Launch teaser');
      await settings('approval publish', 'approvers @bob @carol');
      expect(textOf(await h.run(`publish ${id} youtube`, alice))).toContain('Sent for approval');
      // The request itself pings them when it is posted.
      expect(requestCard().card.notify).toEqual([bob.user, carol.user]);

      await h.advance(11 * HOUR + 50 * MINUTE);
      expect(reminders()).toEqual([]);
      await h.advance(15 * MINUTE); // past 12 h: half of the 24 h lifetime
      expect(reminders()).toHaveLength(1);
      const first = reminders()[0]?.card;
      expect(first?.notify).toEqual([bob.user, carol.user]);
      expect(first?.text).toContain('Launch teaser');
      expect(first?.text).toContain('still waits for an approver');

      for (let i = 0; i < 20; i++) await h.advance(30 * MINUTE); // to 22:05, the poller looking all along
      expect(reminders()).toHaveLength(1);
      for (let i = 0; i < 3; i++) await h.advance(30 * MINUTE); // past 23 h: one hour left
      expect(reminders()).toHaveLength(2);
      expect(reminders()[1]?.card.notify).toEqual([bob.user, carol.user]);

      for (let i = 0; i < 6; i++) await h.advance(30 * MINUTE); // past the expiry and further
      expect(requestCard().card.title).toMatch(/^Expired: /);
      expect(reminders()).toHaveLength(2);
      expect(h.chat.notices.filter((n) => n.user === alice.user).map((n) => n.card.title)).toEqual([
        'Approval expired',
      ]);
    });

    it('`settings reminders off` (audited) stops them; `on` brings them back; a channel cannot turn them on', async () => {
      const first = await rendered('Quiet one');
      const second = await rendered('Loud one');
      await settings('approval publish', 'approvers @bob @carol');
      const off = await h.run('settings reminders off', alice);
      expect(textOf(off)).toContain('Reminders are **off**');
      // A channel may be quieter than its workspace, never louder.
      const here = textOf(await h.run('settings reminders on --here', alice));
      expect(here).toContain('requires no reminders, and a channel can only make it stricter');
      const audit = await h.store.audit.list({ workspacePrefix: h.conversation.replace(/C1$/, '') });
      expect(audit.filter((a) => a.action === 'settings.change').map((a) => a.details)).toContainEqual({
        setting: 'reminders',
        from: 'on',
        to: 'off',
        scope: 'workspace',
      });

      await h.run(`publish ${first} youtube`, alice);
      for (let i = 0; i < 26; i++) await h.advance(HOUR);
      expect(requestCard().card.title).toMatch(/^Expired: /);
      expect(reminders()).toEqual([]);

      expect(textOf(await h.run('settings reminders on', alice))).toContain('Reminders are **on**');
      await h.run(`publish ${second} youtube`, alice);
      for (let i = 0; i < 13; i++) await h.advance(HOUR);
      const card = h.chat.channelMessages.filter((m) => /^Approval needed: /.test(m.card.title));
      expect(card).toHaveLength(1);
      const replies = h.chat.repliesTo(card[0]?.message ?? '');
      expect(replies.map((r) => r.card.title)).toEqual(['Reminder: approval needed']);
      expect(replies[0]?.card.text).toContain('Loud one');
    });

    it('a request decided before half its lifetime is never reminded', async () => {
      const id = await rendered('Decided early');
      await settings('approval publish', 'approvers @bob @carol');
      await h.run(`publish ${id} youtube`, alice);
      await h.advance(HOUR);
      const approve = requestCard().card.controls?.find(
        (c) => c.kind === 'button' && c.action === 'approval.approve',
      );
      if (approve?.kind !== 'button') throw new Error('no Approve button');
      await h.click(approve.action, approve.value, bob);
      for (let i = 0; i < 13; i++) await h.advance(2 * HOUR);
      expect(reminders()).toEqual([]);
    });
  });
}
