/** Forms → Discord modals within the limits, a submission read back into the core's values, the form's launcher. */
import { describe, expect, it } from 'vitest';
import { parseCustomId } from '../../adapters/discord/custom-id.js';
import { formLauncher, prefilled, readSubmission, renderModal } from '../../adapters/discord/modal.js';
import type { Form } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { buttons, memory } from './checked-render.js';
import { messageProblems, modalProblems } from './discord-rules.js';
import { textOf } from './read-message.js';
import type { Json } from './world.js';

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

  it('shows a multiple select as a string select of several values and reads them back comma-separated', () => {
    const platforms: Form = {
      ...form,
      inputs: [
        {
          kind: 'select',
          id: 'platform',
          label: 'Platforms',
          placeholder: 'Choose one or more platforms',
          required: true,
          multiple: true,
          initial: 'youtube,tiktok',
          options: ['youtube', 'tiktok', 'instagram'].map((p) => ({ label: p, value: p })),
        },
      ],
    };
    const modal = renderModal(platforms, 'k3', memory()) as unknown as Json;
    expect(modalProblems(modal)).toEqual([]);
    const select = modal.components.find((c: Json) => c.type === 18)?.component;
    expect(select).toMatchObject({ type: 3, min_values: 1, max_values: 3 });
    expect(select.options.filter((o: Json) => o.default).map((o: Json) => o.value)).toEqual([
      'youtube',
      'tiktok',
    ]);
    expect(readSubmission(platforms, { platform: { values: ['tiktok', 'instagram'] } }, (v) => v)).toEqual({
      platform: 'tiktok,instagram',
    });
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

  it('says the alert before the intro, in the modal and on the button that opens it', () => {
    const warned: Form = {
      ...form,
      alert: { level: 'error', text: md`Your balance is **0**.\nTop up first.` },
    };
    const modal = renderModal(
      { ...warned, inputs: warned.inputs.slice(0, 3) },
      'k4',
      memory(),
    ) as unknown as Json;
    expect(modalProblems(modal)).toEqual([]);
    expect(modal.components.slice(0, 2)).toEqual([
      { type: 10, content: '> ⛔ Your balance is **0**.\n> Top up first.' },
      { type: 10, content: 'Publish **Octopus facts** now.' },
    ]);
    const launcher = formLauncher(warned, 'k4');
    expect(textOf(launcher as unknown as Json)).toContain(
      '> ⛔ Your balance is **0**.\n> Top up first.\n\nPublish **Octopus facts** now.',
    );
  });
});
