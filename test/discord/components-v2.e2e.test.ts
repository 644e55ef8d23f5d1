/**
 * Discord cards as Components V2 messages, end to end through the REAL discord.js client against the fake
 * Discord (which refuses any V2 payload Discord would: content or embeds with the flag, more than 40
 * components, bad nesting, buttons without custom ids, galleries over ten items, section accessories that are
 * neither a button nor a thumbnail, text over 4000 characters), on both simulator profiles:
 *
 * `/reel create` → the status card is posted with the IS_COMPONENTS_V2 flag → once generated, ONE media gallery
 * shows the three thumbnails and each option is a section with its "Use this" button beside it → Bob clicks the
 * button of option 2: the simulator has variant 2 selected, and the re-rendered card marks it → Render → the MP4
 * plays from a gallery item on the card, with the "Download MP4" link button.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import { componentsV2Problems, editProblems, messageProblems } from './discord-rules.js';
import {
  accentOf,
  containerOf,
  controlsIn,
  galleriesOf,
  IS_COMPONENTS_V2,
  isV2,
  sectionsOf,
  textOf,
  titleOf,
  videoIdOf,
} from './read-message.js';
import { controlsOf, discordWorld, type Json, type World } from './world.js';

let open: World | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});
const MINUTE = 60_000;

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  it('shows the video card as one V2 container: thumbnails in a gallery, picks beside them, the MP4 playable', async () => {
    const w = await discordWorld({ harness: { simulator: { profile } } });
    open = w;
    const { fake, h } = w;
    const confirm = await w.slash('create', {
      script: 'Octopuses have three hearts and blue blood, and they taste with their arms.',
      name: 'Octopus facts',
    });
    // The private cost confirmation is a V2 message too: EPHEMERAL | IS_COMPONENTS_V2.
    expect(w.original(confirm).flags).toBe(64 | IS_COMPONENTS_V2);
    await w.click(w.original(confirm), /^Create/);

    // The status card: posted with the bot token and the flag, no content and no embeds.
    const [card] = fake.channelMessages();
    if (!card) throw new Error('no status card in the channel');
    const post = fake.requests.find(
      (r) => r.method === 'POST' && r.path === `/channels/${card.channel_id}/messages`,
    );
    const body = post?.body as Json;
    expect(body.flags).toBe(IS_COMPONENTS_V2);
    expect(body).not.toHaveProperty('content');
    expect(body).not.toHaveProperty('embeds');
    expect(isV2(card)).toBe(true);
    expect(body.components.map((c: Json) => c.type)).toEqual([17]);
    expect(titleOf(card)).toBe('Octopus facts');

    // Generated: one gallery with the three thumbnails, then a section per option with "Use this" beside it.
    await h.until(() => sectionsOf(card).length === 3, { maxMs: 20 * MINUTE });
    expect(accentOf(card)).toBe(0x57f287);
    const thumbnails = galleriesOf(card);
    expect(thumbnails).toHaveLength(1);
    expect(thumbnails[0]).toHaveLength(3);
    expect(thumbnails[0]?.every((i) => /^https?:\/\//.test(i.url))).toBe(true);
    expect(thumbnails[0]?.map((i) => i.description)).toEqual([
      expect.stringMatching(/^Thumbnail option 1/),
      expect.stringMatching(/^Thumbnail option 2/),
      expect.stringMatching(/^Thumbnail option 3/),
    ]);
    const options = sectionsOf(card);
    expect(options.map((o) => o.text.split('\n')[0])).toEqual([
      expect.stringMatching(/^\*\*Option 1\*\*/),
      expect.stringMatching(/^\*\*Option 2\*\*/),
      expect.stringMatching(/^\*\*Option 3\*\*/),
    ]);
    expect(options.map((o) => o.accessory)).toEqual(
      [1, 2, 3].map(() => expect.objectContaining({ type: 2, label: 'Use this' })),
    );
    expect(controlsOf(card)).toEqual([
      'Use this',
      'Use this',
      'Use this',
      'Render',
      'Schedule',
      'Publish now',
    ]);
    // The card's own buttons sit in an action row inside the container, the small print last.
    const container = containerOf(card) as Json;
    expect(container.components.at(-2)).toMatchObject({ type: 1 });
    expect(container.components.at(-1)).toMatchObject({ type: 10, content: expect.stringMatching(/^-# /) });

    // Bob clicks "Use this" beside option 2: the simulator selects variant 2, the card marks it.
    const videoId = videoIdOf(card) as string;
    expect(videoId).toMatch(/\w+/);
    const api = h.deps.apiFor(DEMO_KEY);
    const variants = (await api.videos.get(videoId)).thumbnails?.variants ?? [];
    expect(variants).toHaveLength(3);
    const pick = await w.click(card, String(options[1]?.accessory.custom_id), 'bob');
    expect(pick.callbacks[0]).toMatchObject({ type: 4, data: { flags: 64 | IS_COMPONENTS_V2 } });
    expect(textOf(w.original(pick))).toContain('now uses option 2');
    const chosen = (await api.videos.get(videoId)).thumbnails;
    expect(chosen?.selectedVariantId).toBe(variants[1]?.id);
    expect(chosen?.selectedBy).toBe('user');
    await h.until(() => sectionsOf(card).length === 2, { maxMs: MINUTE });
    const after = sectionsOf(card);
    // Option 2 lost its button (it is in use) and says who picked it; 1 and 3 keep theirs.
    expect(after.map((o) => o.text.split('\n')[0])).toEqual([
      expect.stringMatching(/^\*\*Option 1\*\*/),
      expect.stringMatching(/^\*\*Option 3\*\*/),
    ]);
    expect(textOf(card)).toContain('**Option 2** ✅ in use (picked by Bob)');
    expect(galleriesOf(card)[0]).toHaveLength(3);

    // Render: the MP4 becomes a gallery item (played in the client) next to the "Download MP4" link button.
    await w.click(card, 'Render');
    await h.until(() => controlsOf(card).includes('Download MP4'), { maxMs: 10 * MINUTE });
    const download = controlsIn(card).find((c) => c.label === 'Download MP4') as Json;
    expect(download).toMatchObject({ type: 2, style: 5, url: expect.stringMatching(/\.mp4$/) });
    const galleries = galleriesOf(card);
    expect(galleries).toHaveLength(2);
    expect(galleries[0]).toEqual([{ url: download.url, description: 'Octopus facts, rendered' }]);
    expect(galleries[1]).toHaveLength(3);
    // Every edit of the card went out as V2 (the fake refuses anything else), with the flag kept.
    for (const edit of fake.edits(card.id)) expect(edit.flags).toBe(IS_COMPONENTS_V2);
  }, 60_000);
});

describe('messages posted before V2', () => {
  it('are updated in their own shape when a click answers them, and the outbox makes them V2', async () => {
    const w = await discordWorld();
    open = w;
    const confirm = await w.slash('create', {
      script: 'Octopuses have three hearts.',
      name: 'Octopus facts',
    });
    const cancel = controlsIn(w.original(confirm)).find((c) => c.label === 'Cancel') as Json;
    // The same question as an earlier version posted it: an embed and a row, without the flag.
    const old = {
      id: '1300000000000000990',
      channel_id: w.original(confirm).channel_id,
      content: '',
      embeds: [{ title: 'Create “Octopus facts”?' }],
      components: [{ type: 1, components: [cancel] }],
      flags: 0,
      author: w.fake.botUser,
      history: [],
      deleted: false,
    };
    w.fake.messages.set(old.id, old);
    const clicked = await w.click(old, 'Cancel');
    // UPDATE_MESSAGE of an embed message: embeds again (Discord documents the V2 upgrade for edits only).
    const update = clicked.callbacks[0] as Json;
    expect(update.type).toBe(7);
    expect(update.data.flags ?? 0).toBe(0);
    expect(update.data.embeds).toHaveLength(1);
    expect(isV2(old)).toBe(false);
    expect(textOf(old)).toMatch(/cancel/i);
  });
});

describe('the fake refuses what Discord refuses for V2 messages', () => {
  const text = (content: string) => ({ type: 10, content });
  const v2 = (components: Json[], extra: Json = {}) => ({ flags: IS_COMPONENTS_V2, components, ...extra });
  const button = (custom_id?: string) => ({
    type: 2,
    style: 2,
    label: 'Go',
    ...(custom_id ? { custom_id } : {}),
  });

  it('accepts a well-formed card and names each broken rule', () => {
    const good = v2([
      {
        type: 17,
        accent_color: 0x57f287,
        components: [
          text('### Title'),
          { type: 12, items: [{ media: { url: 'https://img.example/1.png' }, description: 'one' }] },
          { type: 9, components: [text('Option 1')], accessory: button('r|a|1') },
          {
            type: 1,
            components: [button('r|a|2'), { type: 2, style: 5, label: 'Open', url: 'https://x.example' }],
          },
        ],
      },
    ]);
    expect(componentsV2Problems(good)).toEqual([]);
    expect(componentsV2Problems({ ...good, content: 'hi' })).toContain('content with IS_COMPONENTS_V2');
    expect(componentsV2Problems({ ...good, embeds: [{ title: 'x' }] })).toContain(
      'embeds with IS_COMPONENTS_V2',
    );
    const many = v2([{ type: 17, components: Array.from({ length: 40 }, () => text('x')) }]);
    expect(componentsV2Problems(many)).toContain('41 components (max 40)');
    const nested = v2([{ type: 17, components: [{ type: 17, components: [text('x')] }] }]);
    expect(componentsV2Problems(nested)).toContain('component type 17 in a container');
    expect(componentsV2Problems(v2([{ type: 1, components: [button()] }]))).toContain(
      'missing or bad custom_id (0 characters)',
    );
    const items = Array.from({ length: 11 }, (_, i) => ({ media: { url: `https://img.example/${i}.png` } }));
    expect(componentsV2Problems(v2([{ type: 12, items }]))).toContain('gallery with 11 items (1-10)');
    const selectBeside = {
      type: 9,
      components: [text('x')],
      accessory: { type: 3, custom_id: 's', options: [] },
    };
    expect(componentsV2Problems(v2([selectBeside]))).toContain(
      'a section needs a button or thumbnail accessory',
    );
    expect(componentsV2Problems(v2([text('x'.repeat(2500)), text('y'.repeat(2500))]))).toContain(
      '5000 characters of text displays (max 4000)',
    );
    // Without the flag, V2 components are not message components at all.
    expect(componentsV2Problems(v2([text('x')]))).toEqual([]);
    expect(messageProblems({ components: [text('x')] })).toContain('row 0 is not an action row');
  });

  it('lets an edit upgrade an embed message only when content and embeds are reset, and never downgrade', () => {
    const legacy = { flags: 0, content: '<@1>', embeds: [{ title: 'Old' }] };
    const card = [{ type: 17, components: [text('### New')] }];
    expect(editProblems(legacy, v2(card))).toEqual([
      'IS_COMPONENTS_V2 but content not reset',
      'IS_COMPONENTS_V2 but embeds not reset',
    ]);
    expect(editProblems(legacy, v2(card, { content: null, embeds: [] }))).toEqual([]);
    const upgraded = { flags: IS_COMPONENTS_V2, content: '', embeds: [] };
    expect(editProblems(upgraded, { embeds: [{ title: 'back to embeds' }], components: [] })).toContain(
      'embeds with IS_COMPONENTS_V2',
    );
  });
});
