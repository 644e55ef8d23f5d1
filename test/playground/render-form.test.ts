/** A core form → the playground's HTML form, its fields, choices and errors escaped. */
import { describe, expect, it } from 'vitest';
import { renderForm } from '../../adapters/playground/html/form.js';
import type { Form } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { HOSTILE } from './html-probes.js';

describe('renderForm', () => {
  const form: Form = {
    id: 'meta.youtube',
    title: 'YouTube post',
    submitLabel: 'Save',
    state: 'v1:youtube',
    intro: md`Limits are checked **before** sending.`,
    inputs: [
      {
        kind: 'text',
        id: 'title',
        label: 'Title (max 100)',
        required: true,
        maxLength: 100,
        initial: 'Launch',
      },
      {
        kind: 'text',
        id: 'description',
        label: 'Description',
        multiline: true,
        hint: 'Shown under the video',
        placeholder: 'Say more',
      },
      {
        kind: 'select',
        id: 'privacyStatus',
        placeholder: 'Choose who can see it',
        label: 'Visibility',
        required: true,
        initial: 'public',
        options: [
          { label: 'Public', value: 'public' },
          { label: 'Unlisted', value: 'unlisted' },
        ],
      },
    ],
  };
  const html = renderForm(form);

  it('carries the form id and opaque state for the submission', () => {
    expect(html).toContain('data-testid="form" data-form-id="meta.youtube" data-state="v1:youtube"');
    expect(html).toContain('<h2 id="form-title-meta_youtube" data-testid="form-title">YouTube post</h2>');
    expect(html).toContain('data-testid="form-submit">Save</button>');
  });

  it('labels every input and links hints and error slots', () => {
    expect(html).toContain('<label for="input-title">Title (max 100)</label>');
    expect(html).toContain(
      '<label for="input-description">Description <span class="optional">(optional)</span></label>',
    );
    expect(html).toContain('aria-describedby="input-description-hint input-description-error"');
    expect(html).toContain(
      '<p class="form-error" id="input-title-error" data-testid="form-error" data-input-id="title" role="alert" hidden></p>',
    );
  });

  it('renders text, multiline and select inputs with limits and initial values', () => {
    expect(html).toMatch(
      /<input class="input" type="text"[^>]*name="title"[^>]* required data-max-length="100" value="Launch">/,
    );
    expect(html).not.toContain('maxlength');
    expect(html).toMatch(
      /<textarea class="input" rows="4"[^>]*name="description"[^>]*placeholder="Say more"><\/textarea>/,
    );
    expect(html).toContain('<option value="public" selected>Public</option>');
    // Required with an initial value: no blank choice.
    expect(html).not.toContain('<option value=""');
  });

  it('sets the alert apart above the intro, named by its level, a warning announced', () => {
    const warned = renderForm({ ...form, alert: { level: 'warning', text: md`The key is **replaced**.` } });
    expect(warned).toContain(
      '<div class="form-alert form-alert-warning" data-testid="form-alert" data-level="warning" role="alert">' +
        '<strong class="form-alert-level">Warning</strong> The key is <strong>replaced</strong>.</div>' +
        '<div class="form-intro">',
    );
    const noted = renderForm({ ...form, alert: { level: 'info', text: md`Nothing is charged yet.` } });
    expect(noted).toContain('data-level="info" role="status"><strong class="form-alert-level">Note</strong>');
    expect(html).not.toContain('form-alert');
  });

  it('escapes hostile labels, values and state', () => {
    const out = renderForm({
      id: HOSTILE,
      title: HOSTILE,
      submitLabel: HOSTILE,
      state: HOSTILE,
      intro: HOSTILE,
      alert: { level: 'error', text: HOSTILE },
      inputs: [
        {
          kind: 'text',
          id: HOSTILE,
          label: HOSTILE,
          initial: HOSTILE,
          placeholder: HOSTILE,
          hint: HOSTILE,
          multiline: true,
        },
        {
          kind: 'select',
          id: 'x',
          label: HOSTILE,
          placeholder: HOSTILE,
          options: [{ label: HOSTILE, value: HOSTILE }],
        },
      ],
    });
    expect(out).not.toContain('<script');
    expect(out).not.toMatch(/<img/);
    expect(out).toContain('&#39;&quot;&amp;</textarea>');
  });
});
