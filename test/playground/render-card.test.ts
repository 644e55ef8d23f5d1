/** A core card → the playground's HTML, every part of it escaped. */
import { describe, expect, it } from 'vitest';
import { renderCard } from '../../adapters/playground/render.js';
import type { Card } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { HOSTILE, tags } from './html-probes.js';

const fullCard: Card = {
  title: md`Launch teaser`,
  tone: 'progress',
  text: md`Generating **voiceover**…`,
  url: 'https://app.example/videos/v1',
  progress: { percent: 42, label: md`▓▓▓▓░░░░░░ 42% · about 2 min left` },
  fields: [
    { label: md`Model`, value: md`pro`, short: true },
    { label: md`Render`, value: md`[Download MP4](https://cdn.example/v1.mp4)` },
  ],
  image: { url: 'https://cdn.example/t1.jpg', alt: 'Thumbnail of the teaser' },
  sections: [
    {
      text: md`**Option 1**`,
      image: { url: 'https://cdn.example/o1.jpg', alt: 'Thumbnail option 1' },
      controls: [
        { kind: 'button', action: 'thumbnail.pick', value: 'v1:t1', label: 'Use this', style: 'primary' },
      ],
    },
  ],
  controls: [
    { kind: 'button', action: 'video.render', value: 'v1', label: 'Render', style: 'primary' },
    {
      kind: 'button',
      action: 'video.delete',
      value: 'v1',
      label: 'Delete',
      style: 'danger',
      confirm: { title: md`Delete video?`, text: md`No refund.`, confirm: 'Delete', deny: 'Keep' },
    },
    { kind: 'link', label: 'Open', url: 'https://app.example/v1' },
    {
      kind: 'select',
      action: 'video.privacy',
      placeholder: 'Choose visibility',
      options: [
        { label: 'Public', value: 'public' },
        { label: 'Private', value: 'private', description: 'Only you' },
      ],
      initial: 'private',
    },
  ],
  context: md`Requested by Alice · id \`v1\``,
};

describe('renderCard', () => {
  const html = renderCard(fullCard);

  it('marks the tone for the coloured border', () => {
    expect(html).toMatch(/^<section class="card tone-progress" data-testid="card" data-tone="progress">/);
    expect(renderCard({ title: md`t`, tone: 'nope' as never })).toContain('tone-neutral');
  });

  it('renders the title as a link when a web URL is given', () => {
    expect(html).toContain(
      '<a href="https://app.example/videos/v1" target="_blank" rel="noopener noreferrer">Launch teaser</a>',
    );
    expect(renderCard({ title: md`T`, url: 'javascript:alert(1)' })).not.toContain('<a');
  });

  it('shows progress as a native bar with the label, clamped to 0..100', () => {
    expect(html).toContain('<progress max="100" value="42" data-testid="card-progress"');
    expect(html).toContain('<span class="progress-label">42% · about 2 min left</span>');
    expect(renderCard({ title: md`t`, progress: { percent: 7 } })).toContain(
      '<span class="progress-label">7%</span>',
    );
    expect(renderCard({ title: md`t`, progress: { percent: 250 } })).toContain('value="100"');
    expect(renderCard({ title: md`t`, progress: { percent: Number.NaN } })).toContain('value="0"');
  });

  it('renders fields, short ones side by side', () => {
    expect(html).toContain('<div class="field field-short"><dt>Model</dt><dd>pro</dd></div>');
    expect(html).toContain('<dt>Render</dt><dd><a href="https://cdn.example/v1.mp4"');
  });

  it('renders images with their alt text, and never fetches a non-web source', () => {
    expect(html).toContain('src="https://cdn.example/t1.jpg" alt="Thumbnail of the teaser"');
    expect(html).toContain('src="https://cdn.example/o1.jpg" alt="Thumbnail option 1"');
    const bad = renderCard({ title: md`t`, image: { url: 'javascript:alert(1)', alt: 'An image' } });
    expect(bad).not.toContain('<img');
    expect(bad).toContain('An image');
  });

  it('gives buttons their action and value, style and confirm dialog text', () => {
    expect(html).toContain(
      '<button type="button" class="btn btn-primary" data-testid="card-button" data-action="video.render" data-value="v1">Render</button>',
    );
    expect(html).toContain('data-action="thumbnail.pick" data-value="v1:t1">Use this</button>');
    expect(html).toContain(
      'data-confirm-title="Delete video?" data-confirm-text="No refund." data-confirm-yes="Delete" data-confirm-no="Keep"',
    );
    expect(html).toContain('class="btn btn-danger"');
  });

  it('renders link buttons for web URLs only', () => {
    expect(html).toContain(
      '<a class="btn btn-link" href="https://app.example/v1" target="_blank" rel="noopener noreferrer" data-testid="card-link">Open</a>',
    );
    const bad = renderCard({ title: md`t`, controls: [{ kind: 'link', label: 'Bad', url: 'javascript:x' }] });
    expect(bad).not.toContain('href');
  });

  it('renders selects with a placeholder and the initial option chosen', () => {
    expect(html).toContain(
      '<select class="select" data-testid="card-select" data-action="video.privacy" aria-label="Choose visibility">',
    );
    expect(html).toContain('<option value="" disabled>Choose visibility</option>');
    expect(html).toContain('<option value="private" selected title="Only you">Private</option>');
    const none = renderCard({
      title: md`t`,
      controls: [{ kind: 'select', action: 'a', placeholder: 'Pick', options: [{ label: 'A', value: 'a' }] }],
    });
    expect(none).toContain('<option value="" disabled selected>Pick</option>');
  });

  it('renders the context line', () => {
    expect(html).toContain('<p class="card-context">Requested by Alice · id <code>v1</code></p>');
  });

  it('escapes hostile text in every slot', () => {
    const hostile: Card = {
      title: HOSTILE,
      text: HOSTILE,
      fields: [{ label: HOSTILE, value: HOSTILE }],
      image: { url: `https://x.example/"><script>`, alt: HOSTILE },
      sections: [{ text: HOSTILE, fields: [{ label: HOSTILE, value: HOSTILE }] }],
      controls: [
        {
          kind: 'button',
          action: HOSTILE,
          value: HOSTILE,
          label: HOSTILE,
          confirm: { title: HOSTILE, text: HOSTILE, confirm: HOSTILE, deny: HOSTILE },
        },
        { kind: 'link', label: HOSTILE, url: 'https://x.example/"onclick="x' },
        {
          kind: 'select',
          action: HOSTILE,
          placeholder: HOSTILE,
          options: [{ label: HOSTILE, value: HOSTILE, description: HOSTILE }],
        },
      ],
      context: HOSTILE,
      progress: { percent: 5, label: HOSTILE },
    };
    const out = renderCard(hostile);
    expect(out).not.toContain('<script');
    expect(out).not.toMatch(/<img src=x/);
    expect(out).not.toMatch(/"\s*onclick=/);
    expect(new Set(tags(out))).toEqual(
      new Set([
        'section',
        'h3',
        'div',
        'progress',
        'span',
        'dl',
        'dt',
        'dd',
        'img',
        'button',
        'a',
        'select',
        'option',
        'p',
      ]),
    );
  });
});
