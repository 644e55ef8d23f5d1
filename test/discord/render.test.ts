/**
 * Cards → embeds and components, forms → modals, and the custom_id scheme, checked against Discord's limits
 * (`discord-rules.ts`) whatever the core hands over.
 */
import { describe, expect, it } from 'vitest';
import { confirmPayload, embedsSize, renderCard, TONE_COLORS } from '../../adapters/discord/components.js';
import { actionId, modalId, parseCustomId } from '../../adapters/discord/custom-id.js';
import { AdapterMemory } from '../../adapters/discord/memory.js';
import { formLauncher, prefilled, readSubmission, renderModal } from '../../adapters/discord/modal.js';
import type { Card, Form } from '../../src/core/cards.js';
import { code, literal, mention } from '../../src/core/text.js';
import { untilAborted } from '../support/test-clock.js';
import { messageProblems, modalProblems } from './discord-rules.js';
import type { Json } from './world.js';

const clock = { now: () => 1_000_000, sleep: async () => {}, timer: untilAborted };
const memory = () => new AdapterMemory(clock);
const render = (card: Card, m = memory()) => {
  const payload = renderCard(card, m);
  expect(messageProblems(payload as unknown as Json)).toEqual([]);
  return payload;
};
const buttons = (payload: { components: Json[] }) =>
  payload.components.flatMap((r) => r.components as Json[]);

describe('cards → embeds', () => {
  it('renders title, link, tone, text with progress, fields, image and footer', () => {
    const { embeds } = render({
      title: 'Octopus facts',
      url: 'https://video.example/v/1',
      tone: 'progress',
      text: 'Generating **voiceover**…',
      progress: { percent: 40, label: '▓▓▓▓░░░░░░ 40% · about 2 min left' },
      fields: [
        { label: 'Model', value: 'storyboard', short: true },
        { label: 'Render', value: '[Download MP4](https://cdn.example/v.mp4)' },
        { label: 'Empty', value: '' },
      ],
      image: { url: 'https://cdn.example/cover.png', alt: 'cover' },
      context: 'Requested by **Alice** · id `v_1` · [open](https://video.example/v/1)',
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
    expect(render({ title: 't', progress: { percent: 55 } }).embeds[0]?.description).toBe('▓▓▓▓▓▓░░░░ 55%');
  });

  it('gives each section (thumbnail variants) its own embed with its image, up to ten embeds', () => {
    const sections = Array.from({ length: 12 }, (_, i) => ({
      text: `**Option ${i + 1}**`,
      image: { url: i === 1 ? 'javascript:alert(1)' : `https://cdn.example/${i}.png`, alt: '' },
    }));
    const { embeds } = render({ title: 'Thumbnails', tone: 'success', sections, context: 'id `v`' });
    expect(embeds).toHaveLength(10);
    expect(embeds[1]).toEqual({
      color: TONE_COLORS.success,
      description: '**Option 1**',
      image: { url: 'https://cdn.example/0.png' },
    });
    expect(embeds[2]?.image).toBeUndefined(); // only http(s) images
    // The rest still say what they say, in the last embed, which carries the footer.
    expect(embeds[9]?.description).toContain('**Option 12**');
    expect(embeds[9]?.footer?.text).toBe('id v');
  });

  it('cuts gracefully to the per-field and 6000-character limits', () => {
    const huge = 'x'.repeat(10_000);
    const { embeds } = render({
      title: huge,
      text: huge,
      fields: Array.from({ length: 40 }, () => ({ label: huge, value: huge })),
      sections: Array.from({ length: 5 }, () => ({ text: huge })),
      context: huge,
    });
    expect(embeds[0]?.title).toHaveLength(256);
    expect(embeds[0]?.title?.endsWith('…')).toBe(true);
    expect(embeds[0]?.fields?.length).toBeLessThanOrEqual(25);
    expect(embedsSize(embeds)).toBeLessThanOrEqual(6000);
  });
});

describe('controls → components', () => {
  it('numbers section buttons, keeps card buttons on their own row, styles and links', () => {
    const payload = render({
      title: 't',
      sections: [1, 2, 3].map((i) => ({
        text: `Option ${i}`,
        controls: [
          {
            kind: 'button' as const,
            action: 'thumbnail.pick',
            value: `v:${i}`,
            label: 'Use this',
            style: 'primary' as const,
          },
        ],
      })),
      controls: [
        { kind: 'button', action: 'video.render', value: 'v', label: 'Render', style: 'primary' },
        { kind: 'button', action: 'video.delete.confirm', value: 'v', label: 'Delete', style: 'danger' },
        { kind: 'button', action: 'video.schedule', value: 'v', label: 'Schedule' },
        { kind: 'link', label: 'Download MP4', url: 'https://cdn.example/v.mp4' },
        { kind: 'link', label: 'Bad link', url: 'ftp://nope' },
      ],
    });
    expect(payload.components.map((r) => (r.components as Json[]).map((c) => c.label))).toEqual([
      ['1 · Use this'],
      ['2 · Use this'],
      ['3 · Use this'],
      ['Render', 'Delete', 'Schedule', 'Download MP4'],
    ]);
    expect(buttons(payload).map((b) => [b.style, b.custom_id ?? b.url])).toEqual([
      [1, 'r|thumbnail.pick|v:1'],
      [1, 'r|thumbnail.pick|v:2'],
      [1, 'r|thumbnail.pick|v:3'],
      [1, 'r|video.render|v'],
      [4, 'r|video.delete.confirm|v'],
      [2, 'r|video.schedule|v'],
      [5, 'https://cdn.example/v.mp4'],
    ]);
  });

  it('packs buttons five to a row when one row per section would exceed five rows', () => {
    const payload = render({
      title: 't',
      sections: Array.from({ length: 8 }, (_, i) => ({
        text: `s${i}`,
        controls: [{ kind: 'button' as const, action: 'a', value: String(i), label: 'Pick' }],
      })),
      controls: Array.from({ length: 30 }, (_, i) => ({
        kind: 'button' as const,
        action: 'b',
        value: String(i),
        label: `B${i}`,
      })),
    });
    expect(payload.components).toHaveLength(5);
    expect(payload.components.every((r) => r.components.length <= 5)).toBe(true);
    expect(buttons(payload)[0]?.label).toBe('1 · Pick');
  });

  it('keeps custom ids unique and within 100 characters', () => {
    const m = memory();
    const long = 'x'.repeat(120);
    const payload = render(
      {
        title: 't',
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
    expect(m.action((stashed as { key: string }).key)).toEqual({ action: 'video.show', value: long });
    expect(parseCustomId(ids[1] as string)).toEqual({ kind: 'action', action: 'video.show', value: 'v1' });
  });

  it('marks destructive buttons for a confirmation step and builds it', () => {
    const m = memory();
    const confirm = { title: 'Delete this video?', text: 'No refund.', confirm: 'Delete', deny: 'Keep it' };
    const payload = render(
      {
        title: 't',
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
    expect(m.confirm('video.delete.confirm', 'v')).toEqual(confirm);
    const ask = confirmPayload(confirm, { action: 'video.delete.confirm', value: 'v' }, m);
    expect(messageProblems(ask as unknown as Json)).toEqual([]);
    expect(ask.embeds[0]).toMatchObject({
      title: 'Delete this video?',
      description: 'No refund.',
      color: TONE_COLORS.danger,
    });
    expect(buttons(ask).map((b) => [b.label, b.style, b.custom_id])).toEqual([
      ['Delete', 4, 'r|video.delete.confirm|v'],
      ['Keep it', 2, 'x|1'],
    ]);
  });

  it('renders selects with at most 25 options, the initial one chosen', () => {
    const m = memory();
    const long = `acct_${'y'.repeat(120)}`;
    const payload = render(
      {
        title: 't',
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
    expect(m.restoreValue(select?.options[1].value)).toBe(long);
  });
});

describe('forms → modals', () => {
  const form: Form = {
    id: 'publish.form',
    title: 'Publish this video to every platform right now please',
    submitLabel: 'Publish',
    state: 'v_1|1700000000',
    intro: 'Publish **Octopus facts** now.',
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
      inputs: Array.from({ length: 6 }, (_, i) => ({ kind: 'text' as const, id: `f${i}`, label: `F${i}` })),
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
    expect(launcher.embeds[0]?.description).toBe('**Caption**: Too long.\n**Voice**: Unknown voice.');
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
  it('pings only the notify list: in content, with allowed_mentions naming exactly it', () => {
    const payload = render({
      title: 'Approval needed',
      text: `Approvers: ${mention('discord:G1:111')}, ${mention('discord-role:222')}`,
      notify: ['discord:G1:111', 'discord-role:222'],
    });
    expect(payload.content).toBe('<@111> <@&222>');
    expect(payload.allowed_mentions).toEqual({ parse: [], users: ['111'], roles: ['222'] });
    expect(payload.embeds[0]?.description).toBe('Approvers: <@111>, <@&222>');
    const quiet = render({ title: 'Decided', text: `By ${mention('discord:G1:111')}` });
    expect(quiet.content).toBeUndefined();
    expect(quiet.allowed_mentions).toEqual({ parse: [] });
  });

  it('keeps escaped values as Discord escapes, and verbatim in code', () => {
    const name = '<@333> @everyone [Approve](https://ev.il) **x** ⟦@discord:G1:333⟧';
    const { embeds } = render({ title: literal(name), text: `Renamed to ${code('a*b `c`')}` });
    expect(embeds[0]?.title).toBe(
      '\\<@333\\> @everyone \\[Approve\\](https://ev.il) \\*\\*x\\*\\* ⟦@discord:G1:333⟧',
    );
    expect(embeds[0]?.description).toBe('Renamed to `` a*b `c` ``');
    expect(
      renderCard({ title: 'x', context: `by ${literal('**y**')}` }, memory()).embeds[0]?.footer?.text,
    ).toBe('by **y**');
  });
});
