/**
 * Form labels against required flags: every form the core opens from a command (create, series
 * create, link, publish, meta, schedule and a platform's post details), on both simulator profiles, rendered
 * by each adapter's own renderer (Slack view JSON, Discord modal JSON page by page, playground HTML). A label
 * is the field's name alone: the platform marks an optional input its own way, once, and never a required
 * one; a script an upload may stand in for still reads as required where the platform lets it. Every select
 * shows a placeholder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitForModal } from '../../adapters/discord/file-input.js';
import { Kept } from '../../adapters/discord/memory.js';
import { pagesOf, renderModal } from '../../adapters/discord/modal.js';
import { renderForm } from '../../adapters/playground/html/form.js';
import { formToView } from '../../adapters/slack/modal.js';
import type { Form, Response } from '../../src/core/text/cards.js';
import { mustBeTyped } from '../../src/core/text/long-text.js';
import { createHarness, type Harness } from '../support/harness.js';

// biome-ignore lint/suspicious/noExplicitAny: rendered JSON is read loosely.
type Json = Record<string, any>;

/** The commands that open a form, and the form each opens. */
const OPENERS = [
  ['create', 'video.create'],
  ['series create', 'series.create'],
  ['link', 'account.link'],
  ['publish', 'publish.form'],
  ['meta', 'meta.pick'],
  ['schedule', 'schedule.form'],
  ['meta Launch youtube', 'meta.block'],
] as const;

const OPTIONAL = /\(optional\)/i;

describe.each(['spec', 'real'] as const)('form labels on the %s profile', (profile) => {
  let h: Harness;
  const forms = new Map<string, Form>();
  beforeAll(async () => {
    h = await createHarness({ simulator: { profile } });
    await h.run('caption https://cdn.example.com/launch.mp4 --name Launch');
    for (const [typed, id] of OPENERS) {
      const response: Response = await h.run(typed);
      if (response.kind !== 'form') throw new Error(`${typed} answered ${JSON.stringify(response)}`);
      expect(response.form.id.startsWith(id.split('.')[0] as string)).toBe(true);
      forms.set(typed, response.form);
    }
  }, 60_000);
  afterAll(async () => h?.close());

  it.each(OPENERS)('%s: the core labels the field alone, and every select says what to pick', (typed) => {
    const form = forms.get(typed) as Form;
    for (const input of form.inputs) {
      expect(input.label, `${typed} ${input.id}`).not.toMatch(OPTIONAL);
      if (input.kind === 'select') expect(input.placeholder.trim(), `${typed} ${input.id}`).not.toBe('');
    }
  });

  it.each(OPENERS)('%s on Slack: optional exactly where nothing must be typed', (typed) => {
    const form = forms.get(typed) as Form;
    const view = formToView(form, { channel: 'C1' }, { cancel: 'Cancel' }) as unknown as Json;
    const blocks = (view.blocks as Json[]).filter((b) => b.type === 'input');
    for (const input of form.inputs) {
      const block = blocks.find((b) => b.block_id === input.id) as Json;
      expect(block, `${typed} ${input.id}`).toBeDefined();
      expect(block.label.text, `${typed} ${input.id}`).not.toMatch(OPTIONAL);
      // Slack adds "(optional)" itself to a block with `optional: true`.
      expect(block.optional, `${typed} ${input.id}`).toBe(!mustBeTyped(form.inputs, input));
      if (block.element.type === 'static_select')
        expect(block.element.placeholder?.text, `${typed} ${input.id}`).toBeTruthy();
    }
  });

  it.each(OPENERS)('%s on Discord: no "(optional)"; required exactly where it must be typed', (typed) => {
    const form = splitForModal(forms.get(typed) as Form);
    const memory = new Kept();
    const labels: Json[] = [];
    pagesOf(form).forEach((_, page) => {
      const modal = renderModal(form, { key: 'k', page }, memory) as unknown as Json;
      labels.push(...(modal.components as Json[]).filter((c) => c.type === 18));
    });
    for (const input of form.inputs) {
      const label = labels.find((l) => l.component.custom_id === input.id) as Json;
      expect(label, `${typed} ${input.id}`).toBeDefined();
      expect(label.label, `${typed} ${input.id}`).not.toMatch(OPTIONAL);
      expect(label.component.required, `${typed} ${input.id}`).toBe(mustBeTyped(form.inputs, input));
      if (label.component.type === 3)
        expect(label.component.placeholder, `${typed} ${input.id}`).toBeTruthy();
    }
  });

  it.each(OPENERS)(
    '%s in the playground: "(optional)" once on optional inputs, never on required',
    (typed) => {
      const form = forms.get(typed) as Form;
      const html = renderForm(form);
      for (const input of form.inputs) {
        const id = `input-${input.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
        const label = new RegExp(`<label for="${id}">(.*?)</label>`).exec(html)?.[1] ?? '';
        const marks = label.match(/\(optional\)/g)?.length ?? 0;
        expect(marks, `${typed} ${input.id}: ${label}`).toBe(input.required ? 0 : 1);
        const control = new RegExp(`<(?:input|select|textarea)[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
        expect(/ required\b/.test(control), `${typed} ${input.id}`).toBe(mustBeTyped(form.inputs, input));
        if (input.kind === 'select' && !(input.required && input.initial))
          expect(html, `${typed} ${input.id}`).toMatch(
            new RegExp(`id="${id}"[^>]*>(?:<option value=""[^>]*>)([^<]+)</option>`),
          );
      }
    },
  );

  it('the script reads as required where a file may stand in for it, and is not insisted on', () => {
    const form = forms.get('create') as Form;
    const script = form.inputs.find((i) => i.id === 'script');
    expect(script?.required).toBe(true);
    expect(form.inputs.some((i) => i.id === 'script_file')).toBe(true);
    expect(mustBeTyped(form.inputs, script as Form['inputs'][number])).toBe(false);
    expect(renderForm(form)).toMatch(/<label for="input-script">Script<\/label>/);
  });
});
