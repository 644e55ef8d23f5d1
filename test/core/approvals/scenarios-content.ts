/** Approval scenarios: what is published is what was approved (edits after approval), and the shared key's scope. Registered on every driver by `scenarios.ts`. */
import { expect } from 'vitest';
import type { Person, ScenarioDriver, ShownCard } from './driver.js';
import {
  type ApprovalScenario,
  approvalCards,
  button,
  lastApproval,
  MINUTE,
  setup,
  text,
} from './scenario-kit.js';

/** alice and bob may publish; dave may not. Approvers bob and carol. */
async function publishers(d: ScenarioDriver): Promise<void> {
  await setup(d);
  const r = await d.run('alice', `settings role publish ${d.mention('alice')} ${d.mention('bob')}`);
  expect(r.card?.title, text(r)).toBe('Workspace settings updated');
}

/** alice schedules `id` on YouTube in 2 hours and bob approves it; the approved card. */
async function approvedSchedule(d: ScenarioDriver, id: string): Promise<ShownCard> {
  const sent = await d.run('alice', `schedule ${id} youtube in 2 hours`);
  expect(sent.card?.title, text(sent)).toBe('Sent for approval');
  const approved = await d.click('bob', button(await lastApproval(d), 'approval.approve'));
  expect(approved.card?.title, text(approved)).toBe('Approved · Scheduled');
  expect(await d.fixtures.scheduledPosts(id)).toMatchObject([{ platform: 'youtube', status: 'scheduled' }]);
  return lastApproval(d);
}

/**
 * Approval required only in #main (`--here`, as for a #launch channel), where only `publishers` may publish;
 * the workspace itself asks nobody. Approvers bob and carol.
 */
async function launchChannelOnly(d: ScenarioDriver, publishers: Person[]): Promise<void> {
  for (const line of [
    'settings approval publish --here',
    `settings approvers ${d.mention('bob')} ${d.mention('carol')} --here`,
    `settings role publish ${publishers.map((p) => d.mention(p)).join(' ')} --here`,
  ]) {
    const r = await d.run('alice', line);
    expect(r.card?.title, `${line}: ${text(r)}`).toBe('Channel settings updated');
  }
}

/** bob schedules `id` on YouTube in #main in 2 hours and carol approves it. */
async function approvedInLaunch(d: ScenarioDriver, id: string): Promise<void> {
  const sent = await d.run('bob', `schedule ${id} youtube in 2 hours`);
  expect(sent.card?.title, text(sent)).toBe('Sent for approval');
  const approved = await d.click('carol', button(await lastApproval(d), 'approval.approve'));
  expect(approved.card?.title, text(approved)).toBe('Approved · Scheduled');
}

/** A card's text without its "changed since" lines (`old → new`): what it says will be sent. */
const outgoingOf = (card: ShownCard): string =>
  card.text
    .split('\n')
    .filter((line) => !line.includes('→'))
    .join('\n');

/** Past the scheduled moment: what went out for `id`, once the service was asked (its calendar). */
async function afterTheMoment(d: ScenarioDriver, id: string) {
  await d.advance(3 * 60 * MINUTE);
  await d.fixtures.scheduledPosts(id);
  return d.fixtures.publishedTitles().filter((p) => p.videoId === id);
}

export const CONTENT_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'edit after approval by a non-publisher: meta, rename and the thumbnail pick refused; the approved title goes out',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await publishers(d);
      await approvedSchedule(d, id);

      for (const line of [`meta ${id} youtube Launch v2`, `rename ${id} Launch v2`]) {
        const refused = await d.run('dave', line);
        expect(text(refused), line).toContain('was approved and is scheduled');
        expect(text(refused), line).toContain(`Only ${d.mention('alice')}`);
        expect(text(refused), line).toContain('Nothing was changed');
      }
      const options = await d.run('alice', `thumbnails ${id}`);
      const pick = options.card?.buttons.filter((b) => b.action === 'thumbnail.pick') ?? [];
      expect(pick.length, text(options)).toBeGreaterThan(1);
      const refusedPick = await d.click('dave', pick[pick.length - 1] as NonNullable<(typeof pick)[number]>);
      expect(text(refusedPick)).toContain('Nothing was changed');
      expect((await approvalCards(d)).map((c) => c.title.split(':')[0])).toEqual(['Approved']);
      expect(await d.fixtures.scheduledPosts(id)).toMatchObject([
        { platform: 'youtube', status: 'scheduled' },
      ]);

      expect(await afterTheMoment(d, id)).toEqual([
        { videoId: id, platform: 'youtube', title: 'Launch — launch' },
      ]);
    },
  },
  {
    name: 'edit after approval by a publisher: the scheduled post is cancelled and a new request shows the diff',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await publishers(d);
      await approvedSchedule(d, id);

      const changed = await d.run('bob', `meta ${id} youtube Launch v2`);
      expect(changed.card?.title, text(changed)).toBe('YouTube post details saved');
      expect(text(changed)).toContain('its scheduled post is cancelled');
      expect(await d.fixtures.scheduledPosts(id)).not.toContainEqual(
        expect.objectContaining({ status: 'scheduled' }),
      );
      const cards = await approvalCards(d);
      expect(cards.map((c) => c.title.split(':')[0])).toEqual(['Replaced', 'Approval needed']);
      expect(cards[0]?.text).toContain('Replaced because the content changed');
      expect(cards[0]?.buttons).toEqual([]);
      const fresh = cards[1] as ShownCard;
      expect(fresh.title).toMatch(/^Approval needed: Schedule “Launch” on YouTube/);
      expect(fresh.text).toContain('YouTube title: “Launch — launch” → “Launch v2”');

      // Nothing goes out unless the new request is approved.
      expect(await afterTheMoment(d, id)).toEqual([]);
    },
  },
  {
    name: 'the published post carries the approved content: re-approved title goes out; a thumbnail pick asks again',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await publishers(d);
      await approvedSchedule(d, id);
      const changed = await d.run('alice', `meta ${id} youtube Launch v2`);
      expect(changed.card?.title, text(changed)).toBe('YouTube post details saved');
      const fresh = await lastApproval(d);
      expect(fresh.text).toContain('“Launch — launch” → “Launch v2”');

      const options = await d.run('alice', `thumbnails ${id}`);
      const pick = options.card?.buttons.filter((b) => b.action === 'thumbnail.pick') ?? [];
      expect(pick.length, text(options)).toBeGreaterThan(1);
      const picked = await d.click('alice', pick[pick.length - 1] as NonNullable<(typeof pick)[number]>);
      expect(text(picked)).toContain('a new request shows the approvers what changed');
      const request = await lastApproval(d);
      expect(request.text).toMatch(/Thumbnail: .+ → option \d+/);
      const titles = (await approvalCards(d)).map((c) => c.title.split(':')[0]);
      expect(titles).toEqual(['Replaced', 'Replaced', 'Approval needed']);
      const approved = await d.click('bob', button(request, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Scheduled');

      expect(await afterTheMoment(d, id)).toEqual([{ videoId: id, platform: 'youtube', title: 'Launch v2' }]);
    },
  },
  {
    name: 'guarded wherever typed: approval only in #main; a change by a non-publisher there, typed in a DM, another channel or #main, is refused',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await setup(d, { approvers: ['bob', 'carol'] });
      // The workspace asks nobody; #main alone requires approval, and only bob may publish there.
      const off = await d.run('alice', 'settings approval off');
      expect(off.card?.title, text(off)).toBe('Workspace settings updated');
      await launchChannelOnly(d, ['bob']);
      await approvedInLaunch(d, id);

      for (const [as, line] of [
        [{ user: 'alice', channel: 'dm' }, `meta ${id} youtube Hacked from a DM`],
        [{ user: 'dave', channel: 'other' }, `rename ${id} Hacked elsewhere`],
        [{ user: 'dave', channel: 'main' }, `meta ${id} youtube Hacked in launch`],
      ] as const) {
        const refused = await d.run(as, line);
        expect(text(refused), line).toContain('was approved and is scheduled');
        expect(text(refused), line).toContain(`Only ${d.mention('bob')}`);
        expect(text(refused), line).toContain('Nothing was changed');
      }
      expect((await approvalCards(d)).map((c) => c.title.split(':')[0])).toEqual(['Approved']);
      expect(await afterTheMoment(d, id)).toEqual([
        { videoId: id, platform: 'youtube', title: 'Launch — launch' },
      ]);
    },
  },
  {
    name: 'guarded wherever typed: a publisher’s change from a DM cancels the post and asks again in the request’s channel',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await setup(d, { approvers: ['bob', 'carol'] });
      const off = await d.run('alice', 'settings approval off');
      expect(off.card?.title, text(off)).toBe('Workspace settings updated');
      await launchChannelOnly(d, ['alice', 'bob']);
      await approvedInLaunch(d, id);

      const changed = await d.run({ user: 'alice', channel: 'dm' }, `meta ${id} youtube Launch v2`);
      expect(changed.card?.title, text(changed)).toBe('YouTube post details saved');
      expect(text(changed)).toContain('its scheduled post is cancelled');
      expect(await d.fixtures.scheduledPosts(id)).not.toContainEqual(
        expect.objectContaining({ status: 'scheduled' }),
      );
      // The new request is in #main, before #main's approvers; the DM shows no approval card.
      expect(await approvalCards(d, 'dm')).toEqual([]);
      const cards = await approvalCards(d);
      expect(cards.map((c) => c.title.split(':')[0])).toEqual(['Replaced', 'Approval needed']);
      const fresh = cards[1] as ShownCard;
      expect(fresh.text).toContain('YouTube title: “Launch — launch” → “Launch v2”');
      expect(fresh.text).toContain(d.mention('carol'));
      const approved = await d.click('bob', button(fresh, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Scheduled');
      expect(await afterTheMoment(d, id)).toEqual([{ videoId: id, platform: 'youtube', title: 'Launch v2' }]);
    },
  },
  {
    name: 'guarded wherever typed: a pending request of #main; a rename from another channel is refused for a non-publisher and asks again in #main for a publisher',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await setup(d, { approvers: ['bob', 'carol'] });
      const off = await d.run('alice', 'settings approval off');
      expect(off.card?.title, text(off)).toBe('Workspace settings updated');
      await launchChannelOnly(d, ['alice', 'bob']);
      const sent = await d.run('bob', `publish ${id} youtube`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');

      const refused = await d.run({ user: 'dave', channel: 'other' }, `rename ${id} Hacked`);
      expect(text(refused)).toContain('is waiting for approval');
      expect(text(refused)).toContain('Nothing was changed');

      const renamed = await d.run({ user: 'alice', channel: 'other' }, `rename ${id} Launch v2`);
      expect(text(renamed)).toContain('that request is replaced');
      expect(await approvalCards(d, 'other')).toEqual([]);
      const cards = await approvalCards(d);
      expect(cards.map((c) => c.title.split(':')[0])).toEqual(['Replaced', 'Approval needed']);
      const fresh = cards[1] as ShownCard;
      expect(fresh.title).toMatch(/^Approval needed: Publish “Launch v2” to YouTube/);
      expect(fresh.text).toContain('Name: “Launch” → “Launch v2”');
      const approved = await d.click('carol', button(fresh, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
    },
  },
  {
    name: 'the card shows what will be sent: a publish’s --title and --description survive a re-request and are what the service receives',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await setup(d);
      const sent = await d.run(
        'alice',
        `publish ${id} youtube --title "Teaser A" --description "Out on Monday"`,
      );
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const first = await lastApproval(d);
      // The requester edits the stored post details: the override still goes out, so the card still shows it.
      const changed = await d.run('alice', `meta ${id} youtube Stored title v2`);
      expect(changed.card?.title, text(changed)).toBe('YouTube post details saved');
      const again = await lastApproval(d);
      expect(again.title).toMatch(/^Approval needed: Publish “Launch” to YouTube/);
      expect(again.text).toContain('YouTube title: “Launch — launch” → “Stored title v2”');
      const approved = await d.click('bob', button(again, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Published to YouTube');
      const done = await lastApproval(d);
      expect(done.title).toMatch(/^Approved: /);

      const bodies = d.fixtures.sentBodies('/posts');
      expect(bodies).toHaveLength(1);
      const body = bodies[0] as Record<string, unknown>;
      expect(body).toMatchObject({
        videoId: id,
        platform: 'youtube',
        title: 'Teaser A',
        description: 'Out on Monday',
      });
      const account = await d.fixtures.accountLabel(String(body.authId));
      expect(account, JSON.stringify(body)).toBeTruthy();
      for (const [which, card] of [
        ['first request', first],
        ['asked again', again],
        ['approved', done],
      ] as const) {
        const shown = outgoingOf(card);
        expect(shown, which).toContain(String(body.title));
        expect(shown, which).toContain(String(body.description));
        // The stored titles are not what goes out: the card never presents them as the post's.
        expect(shown, which).not.toContain('Launch — launch');
        expect(shown, which).not.toContain('Stored title v2');
        expect(shown, which).toContain(String(account));
        expect(shown, which).toContain('YouTube');
        expect(shown, which).toContain('as soon as it is approved');
      }
      expect(d.fixtures.publishedTitles()).toEqual([{ videoId: id, platform: 'youtube', title: 'Teaser A' }]);
    },
  },
  {
    name: 'the card shows what will be sent: a schedule asked again shows the time, platforms and title the service receives and posts',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch');
      await setup(d);
      const sent = await d.run('alice', `schedule ${id} youtube tomorrow 9am`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const changed = await d.run('alice', `meta ${id} youtube Launch day`);
      expect(changed.card?.title, text(changed)).toBe('YouTube post details saved');
      const again = await lastApproval(d);
      const approved = await d.click('bob', button(again, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Scheduled');

      const [body, ...more] = d.fixtures.sentBodies('/posts/schedule');
      expect(more).toEqual([]);
      expect(body).toEqual({
        videoId: id,
        platforms: ['youtube'],
        scheduledTime: '2026-11-24T09:00:00.000Z',
      });
      const shown = outgoingOf(again);
      expect(shown).toContain('Tue 24 Nov 2026, 09:00 UTC');
      expect(shown).toContain('Launch day');
      expect(shown).toContain('the platform’s default account');
      await d.advance(Date.parse(String(body?.scheduledTime)) - d.now() + 60 * MINUTE);
      await d.fixtures.scheduledPosts(id);
      expect(d.fixtures.publishedTitles()).toEqual([
        { videoId: id, platform: 'youtube', title: 'Launch day' },
      ]);
    },
  },
];
