import { describe, expect, it } from 'vitest';
import { renderForm } from '../../adapters/playground/html/form.js';
import { renderHistory, renderMessage } from '../../adapters/playground/html/message.js';
import type { PlaygroundMessage } from '../../adapters/playground/message-log.js';
import { renderCard } from '../../adapters/playground/render.js';
import { markdownToHtml } from '../../adapters/playground/text.js';
import type { Card, Form, Section } from '../../src/core/text/cards.js';
import { command, md } from '../../src/core/text/text.js';

const HOSTILE = md`<script>alert("x")</script><img src=x onerror=alert(1)>'"&`;

/** Parses the rendered HTML's tags (a cheap structural check without a DOM). */
const tags = (html: string): string[] =>
  [...html.matchAll(/<([a-z0-9]+)[\s>]/gi)].map((m) => (m[1] as string).toLowerCase());

describe('markdownToHtml', () => {
  it('converts the card subset', () => {
    expect(markdownToHtml('**bold** and _italic_ and `code`\nline two')).toBe(
      '<strong>bold</strong> and <em>italic</em> and <code>code</code><br>line two',
    );
  });

  it('links only http(s) URLs, opening in a new tab without an opener', () => {
    expect(markdownToHtml('[Docs](https://example.com/a?b=1&c=2)')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">Docs</a>',
    );
    expect(markdownToHtml('[x](javascript:alert(1))')).not.toContain('<a');
    expect(markdownToHtml('[x](data:text/html,hi)')).not.toContain('href');
    expect(markdownToHtml('[x](/relative)')).toBe('x');
  });

  it('escapes first, so hostile text never becomes markup', () => {
    const html = markdownToHtml(`**${HOSTILE}** [${HOSTILE}](https://ok.example) \`${HOSTILE}\``);
    expect(tags(html).sort()).toEqual(['a', 'code', 'strong']);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('onerror=alert(1)>');
  });

  it('cannot be tricked into an attribute by a quote in a link URL', () => {
    const html = markdownToHtml('[x](https://a.example/"onmouseover="alert(1))');
    expect(html).not.toMatch(/"\s*onmouseover=/);
    expect(html).toContain('&quot;');
  });

  it('leaves snake_case names and markup inside code alone', () => {
    expect(markdownToHtml('video_id_here')).toBe('video_id_here');
    expect(markdownToHtml('`**not bold** _nor italic_`')).toBe('<code>**not bold** _nor italic_</code>');
    expect(markdownToHtml('_Stopped watching after 6 h_')).toBe('<em>Stopped watching after 6 h</em>');
  });

  it('keeps a code span inside a link label', () => {
    expect(markdownToHtml('[`v_1`](https://x.example)')).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer"><code>v_1</code></a>',
    );
  });

  it('ignores NUL characters rather than letting them forge placeholders', () => {
    expect(markdownToHtml('a\u00000\u0000b `c`')).toBe('a0b <code>c</code>');
  });
});

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

  it('escapes hostile labels, values and state', () => {
    const out = renderForm({
      id: HOSTILE,
      title: HOSTILE,
      submitLabel: HOSTILE,
      state: HOSTILE,
      intro: HOSTILE,
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

describe('renderMessage', () => {
  const names = (id: string) => ({ alice: 'Alice' })[id] ?? id;
  const card: PlaygroundMessage = {
    kind: 'card',
    id: 'k-1',
    channel: 'general',
    at: Date.UTC(2026, 0, 2, 9, 5),
    card: { title: md`Hi` },
  };

  it('renders a bot card with author, time and a thread slot', () => {
    const html = renderMessage(card, { userName: names });
    expect(html).toContain('id="m-k-1" data-testid="message" data-message-id="k-1" data-author="reelbot"');
    expect(html).toContain('<time datetime="2026-01-02T09:05:00.000Z">09:05</time>');
    expect(html).toContain('data-testid="thread" hidden');
    expect(html).not.toContain('Only visible to you');
  });

  it('marks private messages and renders command echoes with the user name', () => {
    const echo: PlaygroundMessage = {
      kind: 'command',
      id: 'k-2',
      channel: 'general',
      at: 0,
      userId: 'alice',
      text: `create ${HOSTILE}`,
      visibleTo: 'alice',
    };
    const html = renderMessage(echo, { userName: names });
    expect(html).toContain('data-author="Alice"');
    expect(html).toContain('data-ephemeral="true"');
    expect(html).toContain('Only visible to you');
    expect(html).toContain('<code>/reel create &lt;script&gt;');
  });

  it('nests replies under their parent with a count', () => {
    const reply: PlaygroundMessage = { ...card, id: 'k-3', threadOf: 'k-1', card: { title: md`Done` } };
    const html = renderHistory([card, reply], names);
    expect(html.match(/data-testid="message"/g)).toHaveLength(2);
    expect(html).toContain('data-testid="thread-toggle">1 reply</button>');
    expect(html.indexOf('data-message-id="k-3"')).toBeGreaterThan(
      html.indexOf('data-testid="thread-replies"'),
    );
  });
});

describe('command references', () => {
  it('read as typed in the composer (`/reel link`), as inline code, escaped', () => {
    expect(markdownToHtml(`Run ${command('link')} first.`)).toBe(
      'Run <code class="command" data-testid="command">/reel link</code> first.',
    );
    expect(markdownToHtml(command('status', ['<b>x</b>']))).toBe(
      '<code class="command" data-testid="command">/reel status &lt;b&gt;x&lt;/b&gt;</code>',
    );
  });
});

describe('galleries, videos and panels (issue 18)', () => {
  const thumb = (n: number, url = `https://cdn.example/t${n}.png`): Section => ({
    text: md`**Option ${n}**\n“Hook ${n}”`,
    image: { url, alt: `Option ${n}` },
    controls: [{ kind: 'button' as const, action: 'thumbnail.pick', value: `v:t${n}`, label: 'Use this' }],
  });

  it('lays sections with pictures out as a gallery, each picture above its words and button', () => {
    const html = renderCard({
      title: md`V`,
      sections: [thumb(1), thumb(2), thumb(3), { text: md`no picture` }],
    });
    expect(html.match(/data-gallery-item/g)).toHaveLength(3);
    const item = /<figure class="card-section gallery-item"[\s\S]*?<\/figure>/.exec(html)?.[0] ?? '';
    expect(item.indexOf('<img')).toBeLessThan(item.indexOf('Hook 1'));
    expect(item.indexOf('Hook 1')).toBeLessThan(item.indexOf('Use this'));
    // The picture-less section stays a row after the gallery; one picture alone is no gallery.
    expect(html.indexOf('no picture')).toBeGreaterThan(html.lastIndexOf('data-gallery-item'));
    expect(renderCard({ title: md`V`, sections: [thumb(1)] })).not.toContain('card-gallery');
  });

  it('plays the rendered video in place with its poster and a download link, http(s) only, escaped', () => {
    const html = renderCard({
      title: md`V`,
      video: {
        url: 'https://cdn.example/v.mp4?a=1&b="2"',
        poster: 'https://cdn.example/p.png',
        alt: HOSTILE,
      },
    });
    expect(html).toContain('<video controls preload="none"');
    expect(html).toContain('src="https://cdn.example/v.mp4?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain('poster="https://cdn.example/p.png"');
    expect(html).toContain('data-testid="card-video-download"');
    expect(html).not.toContain('<script>');
    const unsafe = renderCard({
      title: md`V`,
      video: { url: 'javascript:alert(1)', poster: 'data:x', alt: 'the video' },
    });
    expect(unsafe).not.toContain('<video');
    expect(unsafe).not.toContain('javascript:');
    expect(unsafe).toContain('the video');
  });

  it('shows several cards answered together as one panel, each card marked with its place', () => {
    const message: PlaygroundMessage = {
      kind: 'card',
      id: 'm1',
      channel: 'general',
      at: 0,
      card: { title: md`First` },
      more: [{ title: md`Second` }, { title: md`Third ${HOSTILE}` }],
    };
    const html = renderMessage(message, { userName: (id) => id });
    expect(html).toContain('data-testid="card-panel"');
    expect([...html.matchAll(/data-card-index="(\d)"/g)].map((m) => m[1])).toEqual(['0', '1', '2']);
    expect(html).not.toContain('<script>');
  });
});
