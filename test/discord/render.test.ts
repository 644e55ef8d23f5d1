/**
 * Cards → Components V2 messages (and, for messages posted before V2, embeds), forms → modals, and the
 * custom_id scheme, checked against Discord's limits (`discord-rules.ts`) whatever the core hands over.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  componentCount,
  confirmPayload,
  renderCard,
  TONE_COLORS,
} from '../../adapters/discord/components.js';
import { actionId, modalId, parseCustomId } from '../../adapters/discord/custom-id.js';
import { embedsSize, renderEmbedCard } from '../../adapters/discord/embeds.js';
import { AdapterMemory, Kept } from '../../adapters/discord/memory.js';
import { formLauncher, prefilled, readSubmission, renderModal } from '../../adapters/discord/modal.js';
import type { Card, Form } from '../../src/core/text/cards.js';
import { code, literal, md, mention } from '../../src/core/text/text.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { cardText } from '../support/card-text.js';
import { untilAborted } from '../support/test-clock.js';
import { messageProblems, modalProblems } from './discord-rules.js';
import {
  containerOf,
  contextOf,
  controlsIn,
  galleriesOf,
  sectionsOf,
  textDisplaysOf,
  textOf,
  titleOf,
} from './read-message.js';
import type { Json } from './world.js';

const clock = { now: () => 1_000_000, sleep: async () => {}, timer: untilAborted };
const memory = () => new Kept();
const stores: SqliteStore[] = [];
afterAll(async () => await Promise.all(stores.map((s) => s.close())));
/** What a render kept, saved and read back as the next interaction reads it (from the store). */
async function readBack(kept: Kept): Promise<AdapterMemory> {
  const store = openStore({ path: ':memory:', secretKey: randomBytes(32), clock });
  stores.push(store);
  const read = new AdapterMemory(store.interactions);
  await read.save(kept);
  return read;
}
const render = (card: Card, m = memory()) => {
  const payload = renderCard(card, m);
  expect(messageProblems(payload as unknown as Json)).toEqual([]);
  return payload as unknown as Json;
};
const renderEmbeds = (card: Card, m = memory()) => {
  const payload = renderEmbedCard(card, m);
  expect(messageProblems(payload as unknown as Json)).toEqual([]);
  return payload;
};
const buttons = (payload: object) => controlsIn(payload as Json);
const V2 = 1 << 15;

describe('cards → one Components V2 container', () => {
  it('renders title, link, tone, text with progress, fields, video, image and small print', () => {
    const payload = render({
      title: md`Octopus facts`,
      url: 'https://video.example/v/1',
      tone: 'progress',
      text: md`Generating **voiceover**…`,
      progress: { percent: 40, label: md`▓▓▓▓░░░░░░ 40% · about 2 min left` },
      fields: [
        { label: md`Model`, value: md`storyboard`, short: true },
        { label: md`Credits`, value: md`20`, short: true },
        { label: md`Empty`, value: md`` },
      ],
      video: { url: 'https://cdn.example/v.mp4', alt: 'Octopus facts, rendered', poster: 'https://x/p.png' },
      image: { url: 'https://cdn.example/cover.png', alt: 'cover' },
      context: md`Requested by **Alice** · id \`v_1\` · [open](https://video.example/v/1)`,
    });
    expect(payload.flags).toBe(V2);
    expect(payload).not.toHaveProperty('content');
    expect(payload).not.toHaveProperty('embeds');
    expect(payload.components).toEqual([
      {
        type: 17,
        accent_color: TONE_COLORS.progress,
        components: [
          {
            type: 10,
            content:
              '### [Octopus facts](https://video.example/v/1)\nGenerating **voiceover**…\n\n▓▓▓▓░░░░░░ 40% · about 2 min left',
          },
          {
            type: 10,
            content: '**Model**: storyboard · **Credits**: 20\n**Empty**: ',
          },
          {
            type: 12,
            items: [
              { media: { url: 'https://cdn.example/v.mp4' }, description: 'Octopus facts, rendered' },
              { media: { url: 'https://cdn.example/cover.png' }, description: 'cover' },
            ],
          },
          // The video plays in the gallery; its one link downloads it.
          {
            type: 1,
            components: [{ type: 2, style: 5, label: 'Download MP4', url: 'https://cdn.example/v.mp4' }],
          },
          {
            type: 10,
            content: '-# Requested by **Alice** · id `v_1` · [open](https://video.example/v/1)',
          },
        ],
      },
    ]);
    expect(textDisplaysOf(render({ title: md`t`, progress: { percent: 55 } }))).toEqual([
      '### t\n▓▓▓▓▓▓░░░░ 55%',
    ]);
    // Only web URLs: a `javascript:` link or image is left out.
    const unsafe = render({
      title: md`t`,
      url: 'javascript:alert(1)',
      image: { url: 'javascript:x', alt: '' },
    });
    expect(textDisplaysOf(unsafe)).toEqual(['### t']);
    expect(galleriesOf(unsafe)).toEqual([]);
  });

  it('puts thumbnail variants in ONE gallery, each variant a section with its "Use this" beside it', () => {
    const useThis = (i: number) => ({
      kind: 'button' as const,
      action: 'thumbnail.pick',
      value: `v:${i}`,
      label: 'Use this',
      style: 'primary' as const,
    });
    const payload = render({
      title: md`Thumbnails`,
      tone: 'success',
      sections: [1, 2, 3].map((i) => ({
        text: md`**Option ${i}**\n“Hook ${i}”\ngrade A · score 9${i}`,
        image: { url: `https://cdn.example/${i}.png`, alt: `Thumbnail option ${i}` },
        // The variant in use has no button: plain text.
        ...(i === 2 ? {} : { controls: [useThis(i)] }),
      })),
      controls: [{ kind: 'button', action: 'video.render', value: 'v', label: 'Render', style: 'primary' }],
      context: md`id \`v\``,
    });
    const container = containerOf(payload) as Json;
    expect(container.components.map((c: Json) => c.type)).toEqual([10, 14, 12, 9, 10, 9, 1, 10]);
    expect(galleriesOf(payload)).toEqual([
      [1, 2, 3].map((i) => ({ url: `https://cdn.example/${i}.png`, description: `Thumbnail option ${i}` })),
    ]);
    expect(sectionsOf(payload)).toEqual([
      {
        text: '**Option 1**\n“Hook 1”\ngrade A · score 91',
        accessory: { type: 2, style: 1, label: 'Use this', custom_id: 'r|thumbnail.pick|v:1' },
      },
      {
        text: '**Option 3**\n“Hook 3”\ngrade A · score 93',
        accessory: { type: 2, style: 1, label: 'Use this', custom_id: 'r|thumbnail.pick|v:3' },
      },
    ]);
    expect(container.components[4]).toEqual({
      type: 10,
      content: '**Option 2**\n“Hook 2”\ngrade A · score 92',
    });
    // Beside its text, a button needs no number.
    expect(buttons(payload).map((b) => b.label)).toEqual(['Use this', 'Use this', 'Render']);
  });

  it('shows a lone pictured section as a thumbnail beside its text, and gallery-caps at ten', () => {
    const lone = render({
      title: md`t`,
      sections: [{ text: md`The cover`, image: { url: 'https://cdn.example/c.png', alt: 'cover' } }],
    });
    expect(sectionsOf(lone)).toEqual([
      {
        text: 'The cover',
        accessory: { type: 11, media: { url: 'https://cdn.example/c.png' }, description: 'cover' },
      },
    ]);
    expect(galleriesOf(lone)).toEqual([]);
    const twelve = render({
      title: md`Thumbnails`,
      sections: Array.from({ length: 12 }, (_, i) => ({
        text: md`**Option ${i + 1}**`,
        image: { url: i === 1 ? 'javascript:alert(1)' : `https://cdn.example/${i}.png`, alt: '' },
      })),
    });
    // Eleven web images; the gallery shows the first ten; every option still says what it says.
    expect(galleriesOf(twelve)[0]).toHaveLength(10);
    expect(galleriesOf(twelve)[0]?.map((i) => i.url)).not.toContain('javascript:alert(1)');
    for (let i = 1; i <= 12; i++) expect(textOf(twelve)).toContain(`**Option ${i}**`);
  });

  it('stays within 40 components and 4000 characters, cutting with "…"', () => {
    const huge = 'x'.repeat(10_000);
    const payload = render({
      title: cardText(huge),
      text: cardText(huge),
      fields: Array.from({ length: 40 }, () => ({ label: cardText(huge), value: cardText(huge) })),
      sections: Array.from({ length: 20 }, (_, i) => ({
        text: md`Section ${i} ${cardText(huge)}`,
        controls: [{ kind: 'button' as const, action: 'a', value: String(i), label: 'Pick' }],
      })),
      controls: Array.from({ length: 30 }, (_, i) => ({
        kind: 'button' as const,
        action: 'b',
        value: String(i),
        label: `B${i}`,
      })),
      context: cardText(huge),
    });
    expect(componentCount(payload.components)).toBeLessThanOrEqual(40);
    const texts = textDisplaysOf(payload);
    expect(texts.join('').length).toBeLessThanOrEqual(4000);
    expect(texts[0]?.startsWith(`### ${'x'.repeat(255)}…`)).toBe(true);
    // Sections while they fit (text and button), then the others' words in one text display, cut with "…".
    const kept = sectionsOf(payload).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(20);
    for (let i = 0; i <= kept; i++) expect(textOf(payload)).toContain(`Section ${i} x`);
    expect(texts.every((t) => t.length > 0)).toBe(true);
    // The card's own buttons: five rows of five at most.
    expect(buttons(payload).filter((b) => String(b.label).startsWith('B'))).toHaveLength(25);
  });
});

describe('cards → embeds (clicks on messages posted before V2)', () => {
  it('renders title, link, tone, text with progress, fields, image and footer', () => {
    const { embeds } = renderEmbeds({
      title: md`Octopus facts`,
      url: 'https://video.example/v/1',
      tone: 'progress',
      text: md`Generating **voiceover**…`,
      progress: { percent: 40, label: md`▓▓▓▓░░░░░░ 40% · about 2 min left` },
      fields: [
        { label: md`Model`, value: md`storyboard`, short: true },
        { label: md`Render`, value: md`[Download MP4](https://cdn.example/v.mp4)` },
        { label: md`Empty`, value: md`` },
      ],
      image: { url: 'https://cdn.example/cover.png', alt: 'cover' },
      context: md`Requested by **Alice** · id \`v_1\` · [open](https://video.example/v/1)`,
    });
    expect(embeds).toEqual([
      {
        title: 'Octopus facts',
        url: 'https://video.example/v/1',
        color: TONE_COLORS.progress,
        description: 'Generating **voiceover**…\n\n▓▓▓▓░░░░░░ 40% · about 2 min left',
        fields: [
          { name: 'Model', value: 'storyboard', inline: true },
          { name: 'Render', value: '[Download MP4](https://cdn.example/v.mp4)', inline: false },
          { name: 'Empty', value: '\u200b', inline: false },
        ],
        image: { url: 'https://cdn.example/cover.png' },
        footer: { text: 'Requested by Alice · id v_1 · open' },
      },
    ]);
  });

  it('gives each section (thumbnail variants) its own embed with its image, up to ten embeds', () => {
    const sections = Array.from({ length: 12 }, (_, i) => ({
      text: md`**Option ${i + 1}**`,
      image: { url: i === 1 ? 'javascript:alert(1)' : `https://cdn.example/${i}.png`, alt: '' },
    }));
    const { embeds } = renderEmbeds({
      title: md`Thumbnails`,
      tone: 'success',
      sections: sections,
      context: md`id \`v\``,
    });
    expect(embeds).toHaveLength(10);
    expect(embeds[1]).toEqual({
      color: TONE_COLORS.success,
      description: '**Option 1**',
      image: { url: 'https://cdn.example/0.png' },
    });
    expect(embeds[2]?.image).toBeUndefined(); // only http(s) images
    expect(embeds[9]?.description).toContain('**Option 12**');
    expect(embeds[9]?.footer?.text).toBe('id v');
  });

  it('cuts gracefully to the per-field and 6000-character limits', () => {
    const huge = 'x'.repeat(10_000);
    const { embeds } = renderEmbeds({
      title: cardText(huge),
      text: cardText(huge),
      fields: Array.from({ length: 40 }, () => ({ label: cardText(huge), value: cardText(huge) })),
      sections: Array.from({ length: 5 }, () => ({ text: cardText(huge) })),
      context: cardText(huge),
    });
    expect(embeds[0]?.title).toHaveLength(256);
    expect(embeds[0]?.title?.endsWith('…')).toBe(true);
    expect(embeds[0]?.fields?.length).toBeLessThanOrEqual(25);
    expect(embedsSize(embeds)).toBeLessThanOrEqual(6000);
  });

  it('gives a rendered video one Download MP4 link button before the card’s own (issue 27)', () => {
    const payload = renderEmbeds({
      title: md`t`,
      video: { url: 'https://cdn.example/v.mp4', alt: 't, rendered' },
      controls: [{ kind: 'button', action: 'video.schedule', value: 'v', label: 'Schedule' }],
    });
    expect(payload.components.map((r) => r.components.map((c) => ('label' in c ? c.label : '')))).toEqual([
      ['Download MP4', 'Schedule'],
    ]);
    expect(payload.components[0]?.components[0]).toMatchObject({
      style: 5,
      url: 'https://cdn.example/v.mp4',
    });
  });

  it('numbers section buttons below the embeds, and packs five to a row past five rows', () => {
    const payload = renderEmbeds({
      title: md`t`,
      sections: [1, 2, 3].map((i) => ({
        text: md`Option ${i}`,
        controls: [{ kind: 'button' as const, action: 'thumbnail.pick', value: `v:${i}`, label: 'Use this' }],
      })),
      controls: [{ kind: 'link', label: 'Download MP4', url: 'https://cdn.example/v.mp4' }],
    });
    expect(payload.components.map((r) => r.components.map((c) => ('label' in c ? c.label : '')))).toEqual([
      ['1 · Use this'],
      ['2 · Use this'],
      ['3 · Use this'],
      ['Download MP4'],
    ]);
    const packed = renderEmbeds({
      title: md`t`,
      sections: Array.from({ length: 8 }, (_, i) => ({
        text: md`s${i}`,
        controls: [{ kind: 'button' as const, action: 'a', value: String(i), label: 'Pick' }],
      })),
      controls: Array.from({ length: 30 }, (_, i) => ({
        kind: 'button' as const,
        action: 'b',
        value: String(i),
        label: `B${i}`,
      })),
    });
    expect(packed.components).toHaveLength(5);
    expect(packed.components.every((r) => r.components.length <= 5)).toBe(true);
    expect(buttons(packed)[0]?.label).toBe('1 · Pick');
  });
});

describe('controls → components', () => {
  it('keeps card buttons in a row inside the container: styles and links', () => {
    const payload = render({
      title: md`t`,
      controls: [
        { kind: 'button', action: 'video.render', value: 'v', label: 'Render', style: 'primary' },
        { kind: 'button', action: 'video.delete.confirm', value: 'v', label: 'Delete', style: 'danger' },
        { kind: 'button', action: 'video.schedule', value: 'v', label: 'Schedule' },
        { kind: 'link', label: 'Download MP4', url: 'https://cdn.example/v.mp4' },
        { kind: 'link', label: 'Bad link', url: 'ftp://nope' },
        { kind: 'link', label: 'Too long', url: `https://cdn.example/${'x'.repeat(600)}` },
      ],
    });
    const container = containerOf(payload) as Json;
    expect(container.components.map((c: Json) => c.type)).toEqual([10, 1]);
    expect(buttons(payload).map((b) => [b.style, b.custom_id ?? b.url])).toEqual([
      [1, 'r|video.render|v'],
      [4, 'r|video.delete.confirm|v'],
      [2, 'r|video.schedule|v'],
      [5, 'https://cdn.example/v.mp4'],
    ]);
  });

  it('keeps custom ids unique and within 100 characters', async () => {
    const m = memory();
    const long = 'x'.repeat(120);
    const payload = render(
      {
        title: md`t`,
        controls: [
          { kind: 'button', action: 'video.show', value: 'v1', label: 'Open' },
          { kind: 'button', action: 'video.show', value: 'v1', label: 'Open again' },
          { kind: 'button', action: 'video.show', value: long, label: 'Long' },
        ],
      },
      m,
    );
    const ids = buttons(payload).map((b) => String(b.custom_id));
    expect(ids.slice(0, 2)).toEqual(['r|video.show|v1', 'r2|video.show|v1']);
    expect(ids[2]).toMatch(/^h\|/);
    const stashed = parseCustomId(ids[2] as string);
    expect(stashed?.kind).toBe('stashed');
    expect(await (await readBack(m)).action((stashed as { key: string }).key)).toEqual({
      action: 'video.show',
      value: long,
    });
    expect(parseCustomId(ids[1] as string)).toEqual({ kind: 'action', action: 'video.show', value: 'v1' });
  });

  it('marks destructive buttons for a confirmation step and builds it', async () => {
    const m = memory();
    const confirm = {
      title: md`Delete this video?`,
      text: md`No refund.`,
      confirm: md`Delete`,
      deny: 'Keep it',
    };
    const payload = render(
      {
        title: md`t`,
        controls: [
          {
            kind: 'button',
            action: 'video.delete.confirm',
            value: 'v',
            label: 'Delete',
            style: 'danger',
            confirm,
          },
        ],
      },
      m,
    );
    expect(buttons(payload)[0]?.custom_id).toBe('c|video.delete.confirm|v');
    expect(await (await readBack(m)).confirm('video.delete.confirm', 'v')).toEqual(confirm);
    const ask = confirmPayload(confirm, { action: 'video.delete.confirm', value: 'v' }, m);
    expect(messageProblems(ask as unknown as Json)).toEqual([]);
    expect(ask.flags).toBe(V2);
    expect(titleOf(ask as unknown as Json)).toBe('Delete this video?');
    expect(textOf(ask as unknown as Json)).toBe('Delete this video?\nNo refund.');
    expect(containerOf(ask as unknown as Json)?.accent_color).toBe(TONE_COLORS.danger);
    expect(buttons(ask).map((b) => [b.label, b.style, b.custom_id])).toEqual([
      ['Delete', 4, 'r|video.delete.confirm|v'],
      ['Keep it', 2, 'x|1'],
    ]);
  });

  it('renders selects with at most 25 options, the initial one chosen', async () => {
    const m = memory();
    const long = `acct_${'y'.repeat(120)}`;
    const payload = render(
      {
        title: md`t`,
        controls: [
          {
            kind: 'select',
            action: 'publish.account',
            placeholder: 'Choose an account',
            initial: 'a1',
            options: [
              { label: 'Main', value: 'a1', description: 'default' },
              { label: 'Long', value: long },
              ...Array.from({ length: 30 }, (_, i) => ({ label: `Other ${i}`, value: `o${i}` })),
            ],
          },
        ],
      },
      m,
    );
    const [select] = buttons(payload);
    expect(select).toMatchObject({
      type: 3,
      custom_id: 'r|publish.account|',
      placeholder: 'Choose an account',
      min_values: 1,
      max_values: 1,
    });
    expect(select?.options).toHaveLength(25);
    expect(select?.options[0]).toEqual({ label: 'Main', value: 'a1', description: 'default', default: true });
    expect(await (await readBack(m)).restoreValue(select?.options[1].value)).toBe(long);
  });
});

describe('forms → modals', () => {
  const form: Form = {
    id: 'publish.form',
    title: 'Publish this video to every platform right now please',
    submitLabel: 'Publish',
    state: 'v_1|1700000000',
    intro: md`Publish **Octopus facts** now.`,
    inputs: [
      {
        kind: 'text',
        id: 'video',
        label: 'Video',
        required: true,
        initial: 'last',
        hint: 'Name, id or last',
      },
      {
        kind: 'text',
        id: 'caption',
        label: 'Caption',
        multiline: true,
        maxLength: 9000,
        placeholder: 'Say something',
      },
      {
        kind: 'select',
        id: 'privacy',
        label: 'YouTube visibility',
        placeholder: 'Public',
        initial: 'public',
        options: ['public', 'unlisted', 'private'].map((p) => ({
          label: p[0]?.toUpperCase() + p.slice(1),
          value: p,
        })),
      },
      {
        kind: 'select',
        id: 'voice',
        label: 'Voice',
        placeholder: 'Choose a voice',
        required: true,
        options: Array.from({ length: 30 }, (_, i) => ({ label: `Voice ${i}`, value: `voice_${i}` })),
      },
    ],
  };

  it('uses labels, string selects and a text display for the intro, within the limits', () => {
    const modal = renderModal(form, 'k1', memory()) as unknown as Json;
    expect(modalProblems(modal)).toEqual([]);
    expect(modal.title).toHaveLength(45);
    expect(modal.custom_id).toBe('m|k1|publish.form|v_1|1700000000');
    expect(modal.components.map((c: Json) => c.type)).toEqual([10, 18, 18, 18, 18]);
    expect(modal.components[1]).toEqual({
      type: 18,
      label: 'Video',
      description: 'Name, id or last',
      component: { type: 4, custom_id: 'video', style: 1, required: true, value: 'last' },
    });
    expect(modal.components[2].component).toMatchObject({
      style: 2,
      max_length: 4000,
      placeholder: 'Say something',
    });
    expect(modal.components[3].component).toMatchObject({
      type: 3,
      custom_id: 'privacy',
      required: false,
      min_values: 0,
      max_values: 1,
      options: [
        { label: 'Public', value: 'public', default: true },
        { label: 'Unlisted', value: 'unlisted' },
        { label: 'Private', value: 'private' },
      ],
    });
    // More options than a select lists: a text input that names them.
    expect(modal.components[4].component).toMatchObject({ type: 4, custom_id: 'voice', required: true });
    expect(modal.components[4].component.placeholder).toMatch(/^Voice 0, Voice 1, /);
  });

  it('drops the intro when five inputs fill the modal, and keeps long state in memory', () => {
    const five: Form = {
      ...form,
      state: 'x'.repeat(200),
      inputs: Array.from({ length: 5 }, (_, i) => ({ kind: 'text' as const, id: `f${i}`, label: `F${i}` })),
    };
    const modal = renderModal(five, 'k2', memory()) as unknown as Json;
    expect(modalProblems(modal)).toEqual([]);
    expect(modal.components).toHaveLength(5);
    expect(modal.components.every((c: Json) => c.type === 18)).toBe(true);
    expect(modal.custom_id).toBe('m|k2');
    expect(parseCustomId(modal.custom_id)).toEqual({ kind: 'modal', key: 'k2' });
  });

  it('reads submissions back into the core’s values', () => {
    const values = readSubmission(
      form,
      {
        video: { value: 'last' },
        caption: { value: 'Hi' },
        privacy: { values: ['unlisted'] },
        voice: { value: 'voice 7' },
      },
      (v) => v,
    );
    expect(values).toEqual({ video: 'last', caption: 'Hi', privacy: 'unlisted', voice: 'voice_7' });
    expect(readSubmission(form, { privacy: { values: [] } }, (v) => v)).toEqual({ privacy: '' });
    const again = prefilled(form, values);
    expect(again.inputs.find((i) => i.id === 'caption')).toMatchObject({ initial: 'Hi' });
  });

  it('offers a button that opens the form, listing errors by label', () => {
    const launcher = formLauncher(form, 'k3', { caption: 'Too long.', voice: 'Unknown voice.' });
    expect(messageProblems(launcher as unknown as Json)).toEqual([]);
    expect(textOf(launcher as unknown as Json)).toContain(
      '**Caption**: Too long.\n**Voice**: Unknown voice.',
    );
    expect(buttons(launcher)[0]).toMatchObject({ style: 1, custom_id: 'o|k3' });
  });
});

describe('custom ids', () => {
  it('round-trip, and refuse what is not theirs', () => {
    const taken = new Set<string>();
    expect(
      parseCustomId(actionId({ kind: 'action', action: 'meta.pick', value: 'v|yt|1' }, taken) as string),
    ).toEqual({
      kind: 'action',
      action: 'meta.pick',
      value: 'v|yt|1',
    });
    expect(
      parseCustomId(
        actionId({ kind: 'confirm', action: 'series.delete.confirm', value: 's1' }, taken) as string,
      ),
    ).toEqual({
      kind: 'confirm',
      action: 'series.delete.confirm',
      value: 's1',
    });
    expect(actionId({ kind: 'action', action: 'a', value: 'x'.repeat(100) }, taken)).toBeUndefined();
    expect(parseCustomId(modalId('k', 'account.link', ''))).toEqual({
      kind: 'modal',
      key: 'k',
      formId: 'account.link',
      state: '',
    });
    expect(parseCustomId('o|abc')).toEqual({ kind: 'open-form', key: 'abc' });
    expect(parseCustomId('x|1')).toEqual({ kind: 'dismiss' });
    for (const bad of ['', 'hello', 'r|', 'r|action-without-value', 'z|1', 'm|'])
      expect(parseCustomId(bad), bad).toBeUndefined();
  });
});

describe('mentions, pings and escaped text', () => {
  it('pings only the notify list: a text display above the card, with allowed_mentions naming exactly it', () => {
    const payload = render({
      title: md`Approval needed`,
      text: md`Approvers: ${mention('discord:G1:111')}, ${mention('discord-role:222')}`,
      notify: ['discord:G1:111', 'discord-role:222'],
    });
    expect(payload.components[0]).toEqual({ type: 10, content: '<@111> <@&222>' });
    expect(payload.components[1]?.type).toBe(17);
    expect(payload.allowed_mentions).toEqual({ parse: [], users: ['111'], roles: ['222'] });
    expect(textDisplaysOf({ components: [payload.components[1]] })).toEqual([
      '### Approval needed\nApprovers: <@111>, <@&222>',
    ]);
    const quiet = render({ title: md`Decided`, text: md`By ${mention('discord:G1:111')}` });
    expect(quiet.components.map((c: Json) => c.type)).toEqual([17]);
    expect(quiet.allowed_mentions).toEqual({ parse: [] });
  });

  it('keeps escaped values as Discord escapes, and verbatim in code', () => {
    const name = '<@333> @everyone [Approve](https://ev.il) **x** ⟦@discord:G1:333⟧';
    const payload = render({ title: literal(name), text: md`Renamed to ${code('a*b `c`')}` });
    expect(titleOf(payload)).toBe(
      '\\<@333\\> @everyone \\[Approve\\](https://ev.il) \\*\\*x\\*\\* ⟦@discord:G1:333⟧',
    );
    expect(textOf(payload)).toContain('Renamed to `` a*b `c` ``');
    expect(contextOf(render({ title: md`x`, context: md`by ${literal('**y**')}` }))).toBe('by \\*\\*y\\*\\*');
  });
});
