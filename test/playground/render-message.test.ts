/** A message in the playground's history → HTML: cards, private notes, echoes, threads, galleries, videos, panels. */
import { describe, expect, it } from 'vitest';
import { renderHistory, renderMessage } from '../../adapters/playground/html/message.js';
import type { PlaygroundMessage } from '../../adapters/playground/message-log.js';
import { renderCard } from '../../adapters/playground/render.js';
import { md } from '../../src/core/text/text.js';
import { HOSTILE } from './html-probes.js';

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

describe('galleries, videos and panels', () => {
  const thumb = (n: number, url = `https://cdn.example/t${n}.png`) => ({
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
