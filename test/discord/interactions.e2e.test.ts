/**
 * How Discord interactions map to the core and back, end to end over the real discord.js gateway client:
 * autocomplete, approvals by Discord role, private errors, deferred answers whose visibility follows the
 * core's, forms as modals (selects included), form errors with a reopen button, and the confirm step of a
 * destructive button.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import type { FakeInteraction, FakeMessage } from './fake-discord.js';
import { controlsIn, titleOf, videoIdOf } from './read-message.js';
import { controlsOf, discordWorld, IDS, type Json, MEMBERS, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

/** `/reel create` + Create: a video of the demo team, and alice's `last`. */
async function createVideo(name = 'Octopus facts'): Promise<string> {
  const confirm = await w.slash('create', {
    script: 'Octopuses have three hearts and blue blood, and they taste with their arms.',
    name,
  });
  const created = await w.click(w.original(confirm), /^Create/);
  const id = videoIdOf(w.original(created));
  if (!id) throw new Error('no video id');
  return id;
}

const button = (message: FakeMessage, label: string) => controlsIn(message).find((c) => c.label === label);

describe('autocomplete', () => {
  it('suggests the caller’s videos (and `last`), voices and series', async () => {
    w = await discordWorld();
    const id = await createVideo();
    const videos = await w.autocomplete('show', 'video', 'oct');
    expect(videos).toEqual([
      { name: 'last (your most recent)', value: 'last' },
      { name: 'Octopus facts', value: id },
    ]);
    const voices = await w.autocomplete('create', 'voice', 'aria');
    expect(voices.map((v) => v.name)).toEqual([expect.stringMatching(/^Aria · en/)]);
    const cost = await w.slash('series create', { name: 'Night facts', source: 'ai_story' });
    await w.click(w.original(cost), /^Create series/);
    const series = await w.autocomplete('series show', 'series', 'night');
    expect(series).toEqual([
      { name: 'last (your most recent)', value: 'last' },
      { name: 'Night facts', value: expect.any(String) },
    ]);
    for (const list of [videos, voices, series]) {
      expect(list.length).toBeLessThanOrEqual(25);
      expect(list.every((c) => c.name.length <= 100 && c.value.length <= 100)).toBe(true);
    }
  });

  it('answers an empty list when the member has no key', async () => {
    w = await discordWorld({ linked: ['alice'] });
    expect(await w.autocomplete('show', 'video', '', 'carol')).toEqual([]);
  });
});

describe('approvals by Discord role', () => {
  it('lets a member holding the approver role decide, and nobody else', async () => {
    w = await discordWorld();
    // Approvals can be switched on only once an admin role is set.
    await w.slash('channel settings', { key: 'role', value: `admin <@${MEMBERS.alice.id}>` });
    await w.slash('channel settings', { key: 'approval', value: 'spend' });
    await w.slash('channel settings', { key: 'spend-threshold', value: '10' });
    await w.slash('channel settings', { key: 'approvers', value: `<@&${IDS.approvers}>` });
    const confirm = await w.slash('create', { script: 'Octopuses have three hearts and blue blood.' }, 'bob');
    const asked = await w.click(w.original(confirm), 'Request approval (20 credits)', 'bob');
    expect(textOfMessage(w.original(asked))).toContain(`Sent for approval to <@&${IDS.approvers}>`);
    const card = w.fake.channelMessages().find((m) => controlsOf(m).includes('Approve'));
    if (!card) throw new Error('no approval card');
    expect(card.flags & 64).toBe(0);

    // Carol holds no role: refused, privately. Alice holds the Approvers role (from the member's roles).
    const carol = await w.click(card, 'Approve', 'carol');
    expect(w.original(carol).flags & 64).toBe(64);
    expect(textOfMessage(w.original(carol))).toContain('Only approvers can decide this');
    const alice = await w.click(card, 'Approve', 'alice');
    expect(textOfMessage(w.original(alice))).toMatch(/^Approved · Creating/);
    expect(w.h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0)).toHaveLength(1);
  });
});

describe('errors', () => {
  it('are private, with usage, and change nothing', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const missing = await w.slash('rename', { video: 'no-such-video', name: 'x' });
    expect(w.original(missing).flags & 64).toBe(64);
    expect(textOfMessage(w.original(missing))).toMatch(/^Not done/);
    const bad = await w.slash('caption', { url: 'not a url' });
    expect(textOfMessage(w.original(bad))).toMatch(
      /isn't a public http\(s\) URL[\s\S]*\*\*Usage\*\*: `\/reel caption/,
    );
    const unlinked = await w.slash('videos', {}, 'carol');
    expect(textOfMessage(w.original(unlinked))).toContain('You have not linked an API key yet');
    expect(w.original(unlinked).flags & 64).toBe(64);
    expect(w.fake.channelMessages()).toEqual([]);
  });
});

describe('deferred answers', () => {
  it('edit the private placeholder when the answer is private', async () => {
    w = await discordWorld({ deferAfterMs: 0 });
    const r = await w.slash('help');
    await w.fake.waitFor(() => r.events.includes('edit'));
    expect(r.events).toEqual(['callback:5', 'edit']);
    expect(r.callbacks[0]).toEqual({ type: 5, data: { flags: 64 } });
    const message = w.original(r);
    expect(message.flags & 64).toBe(64);
    expect(titleOf(message)).toBe('reelbot commands');
  });

  it('post a public follow-up (and drop the placeholder) when the core answers the channel', async () => {
    w = await discordWorld({ deferAfterMs: 0 });
    const r = await w.slash('channel subscribe', { what: 'calendar' });
    await w.fake.waitFor(() => r.events.includes('delete'));
    expect(r.events).toEqual(['callback:5', 'followup', 'delete']);
    const followUp = w.fake.messages.get(r.followups[0] as string) as FakeMessage;
    expect(followUp.flags & 64).toBe(0);
    expect(titleOf(followUp)).toBe('Subscribed: calendar');
    expect(w.fake.messages.get(r.original as string)?.deleted).toBe(true);
    expect(w.fake.channelMessages().map(titleOf)).toEqual(['Subscribed: calendar']);
  });

  it('turn a form into a button that opens it (a modal must be the first response)', async () => {
    w = await discordWorld({ deferAfterMs: 0, linked: ['alice'] });
    const r = await w.slash('account link', {}, 'carol');
    await w.fake.waitFor(() => r.events.includes('edit'));
    const launcher = w.original(r);
    expect(launcher.flags & 64).toBe(64);
    expect(controlsOf(launcher)).toEqual(['Link your API key']);
    const open = await w.click(launcher, 'Link your API key', 'carol');
    expect(open.callbacks[0]).toMatchObject({ type: 9, data: { title: 'Link your API key' } });
    const modal = (open.callbacks[0] as { data: { components: { type: number; label?: string }[] } }).data;
    expect(modal.components.map((c) => c.type)).toEqual([10, 18]);
    const submitted = await w.submit(open, { key: DEMO_KEY }, 'carol');
    await w.fake.waitFor(() => submitted.events.length >= 2 || undefined);
    const whoami = await w.slash('account whoami', {}, 'carol');
    await w.fake.waitFor(() => whoami.events.includes('edit'));
    expect(textOfMessage(w.original(whoami))).toContain('You act as Demo Team');
  });

  it('acknowledge a click silently, then edit its message', async () => {
    w = await discordWorld({ deferAfterMs: 0 });
    const confirm = await w.slash('create', { script: 'Octopuses have three hearts and blue blood.' });
    await w.fake.waitFor(() => confirm.events.includes('edit'));
    const ask = w.original(confirm);
    const cancel = await w.click(ask, 'Cancel');
    await w.fake.waitFor(() => cancel.events.includes('edit'));
    expect(cancel.events).toEqual(['callback:6', 'edit']);
    expect(cancel.original).toBe(ask.id);
    expect(controlsOf(ask)).toEqual([]);
    expect(w.h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0)).toEqual([]);
  });
});

describe('forms', () => {
  it('show selects as string selects in labels and read the chosen value', async () => {
    w = await discordWorld();
    const open = await w.slash('create');
    const modal = (open.callbacks[0] as { data: { title: string; components: Json[] } }).data;
    // One modal (a form of more inputs comes in pages: forms-native.e2e.test.ts).
    expect(modal.title).toBe('Create a video');
    const model = modal.components.find((c) => c.component?.custom_id === 'model');
    expect(model).toMatchObject({ type: 18, label: 'Model', component: { type: 3 } });
    const voice = modal.components.find((c) => c.component?.custom_id === 'voice')?.component.options[0]
      .value;
    const submitted = await w.submit(open, {
      script: 'The moon drifts away from Earth by about four centimetres a year.',
      voice,
      model: 'motion_lite',
    });
    expect(textOfMessage(w.answer(submitted))).toContain('**50 credits**');
  });

  it('answer errors privately with a button reopening the form, filled in', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const open = await w.slash('create', {}, 'alice');
    const submitted = await w.submit(open, { script: 'Too short' }, 'alice');
    const errors = w.answer(submitted);
    expect(errors.flags & 64).toBe(64);
    expect(textOfMessage(errors)).toMatch(/\*\*Script\*\*: /);
    const [reopen] = controlsOf(errors);
    const again = await w.click(errors, String(reopen), 'alice');
    const modal = again.callbacks[0] as { type: number; data: { components: Json[] } };
    expect(modal.type).toBe(9);
    expect(modal.data.components.find((c) => c.component?.custom_id === 'script')?.component.value).toBe(
      'Too short',
    );
  });

  it('reopens a form with a secret (the link form’s key) empty', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const open = await w.slash('account link', {}, 'carol');
    const submitted = await w.submit(open, { key: 'not a key' }, 'carol');
    const errors = w.original(submitted);
    expect(textOfMessage(errors)).toMatch(/\*\*Team API key\*\*: /);
    expect(controlsOf(errors)).toEqual(['Link your API key']);
    const again = await w.click(errors, 'Link your API key', 'carol');
    const modal = again.callbacks[0] as { type: number; data: { components: Json[] } };
    expect(modal.type).toBe(9);
    expect(modal.data.components.find((c) => c.component?.custom_id === 'key')?.component.value ?? '').toBe(
      '',
    );
  });
});

/** The "are you sure?" a destructive click asked: a private follow-up, its card left as the original. */
async function question(ask: FakeInteraction): Promise<FakeMessage> {
  await w.fake.waitFor(() => ask.followups.length > 0);
  expect(ask.callbacks[0]).toMatchObject({ type: 6 });
  const sure = w.fake.messages.get(ask.followups[0] as string);
  if (!sure) throw new Error('no question');
  return sure;
}

describe('destructive buttons', () => {
  it('ask "are you sure?" privately first; deny dismisses, confirm runs and closes the card too', async () => {
    w = await discordWorld();
    const id = await createVideo();
    const r = await w.slash('delete', { video: id });
    const card = w.original(r);
    const asked = String(button(card, 'Delete')?.custom_id);
    expect(asked.startsWith(`c|video.delete.confirm|${id}:`)).toBe(true);
    expect(button(card, 'Delete')).toMatchObject({ style: 4 });

    const ask = await w.click(card, 'Delete');
    const sure = await question(ask);
    expect(sure.flags & 64).toBe(64);
    expect(titleOf(sure)).toBe('Delete this video?');
    expect(controlsOf(sure)).toEqual(['Delete', 'Keep it']);
    expect(button(sure, 'Delete')).toMatchObject({ style: 4, custom_id: asked.replace(/^c\|/, 'r|') });

    const deny = await w.click(sure, 'Keep it');
    await w.fake.waitFor(() => deny.events.includes('delete'));
    expect(deny.events).toEqual(['callback:6', 'delete']);
    expect(sure.deleted).toBe(true);
    expect((await w.h.deps.apiFor(DEMO_KEY).videos.get(id)).id).toBe(id);
    expect(controlsOf(card)).toEqual(['Delete', 'Keep it']);

    const sure2 = await question(await w.click(card, 'Delete'));
    const done = await w.click(sure2, 'Delete');
    expect(done.callbacks[0]).toMatchObject({ type: 7 });
    await expect(w.h.deps.apiFor(DEMO_KEY).videos.get(id)).rejects.toMatchObject({ type: 'not_found' });
    // The card the question was asked from shows the outcome too, without its buttons.
    expect(titleOf(card)).toMatch(/^Deleted “/);
    expect(controlsOf(card)).toEqual([]);
  });

  it('still ask after a restart, in the clicked message’s own words', async () => {
    w = await discordWorld();
    // A card an earlier run posted: this adapter never rendered it, so it remembers no confirm wording.
    const old: FakeMessage = {
      id: '1300000000000000777',
      channel_id: IDS.channel,
      content: '',
      embeds: [{ title: 'Delete “Old video”?' }],
      components: [
        {
          type: 1,
          components: [{ type: 2, style: 4, label: 'Delete', custom_id: 'c|video.delete.confirm|vid_old' }],
        },
      ],
      flags: 0,
      author: w.fake.botUser,
      history: [],
      deleted: false,
    };
    w.fake.messages.set(old.id, old);
    const sure = await question(await w.click(old, 'Delete'));
    expect(titleOf(sure)).toBe('Delete “Old video”?');
    expect(button(sure, 'Delete')).toMatchObject({ style: 4, custom_id: 'r|video.delete.confirm|vid_old' });
  });

  it('still ask after a restart when the clicked card is a Components V2 one', async () => {
    w = await discordWorld();
    const old: FakeMessage = {
      id: '1300000000000000778',
      channel_id: IDS.channel,
      content: '',
      embeds: [],
      components: [
        {
          type: 17,
          accent_color: 0x57f287,
          components: [
            { type: 10, content: '### Old video\nGenerated.' },
            {
              type: 1,
              components: [
                { type: 2, style: 4, label: 'Delete', custom_id: 'c|video.delete.confirm|vid_old' },
              ],
            },
          ],
        },
      ],
      flags: 1 << 15,
      author: w.fake.botUser,
      history: [],
      deleted: false,
    };
    w.fake.messages.set(old.id, old);
    const sure = await question(await w.click(old, 'Delete'));
    expect(sure.flags).toBe(64 | (1 << 15));
    // The question names the card it was asked on: its heading, read back from the container.
    expect(titleOf(sure)).toBe('Old video');
    expect(button(sure, 'Delete')).toMatchObject({ style: 4, custom_id: 'r|video.delete.confirm|vid_old' });
  });
});
