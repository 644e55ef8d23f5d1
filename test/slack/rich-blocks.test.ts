/** Block Kit where it serves: rich_text lists and quotes, a rendered video's poster and link, stacked thumbnails. */
import { describe, expect, it } from 'vitest';
import { cardToBlocks, decodeActionId } from '../../adapters/slack/render.js';
import type { Card } from '../../src/core/text/cards.js';
import { channel, command, literal, md, mention } from '../../src/core/text/text.js';
import { elements, expectValidBlocks } from './world.js';

type B = Record<string, unknown>;

describe('Block Kit where it serves', () => {
  it('shows a bullet list as a rich_text list: bold, code, links, mentions and channels as elements', () => {
    const card: Card = {
      title: md`Follows`,
      text: md`**Missing scopes:**\n• **videos:write** for ${command('create')}\n• ${channel('slack:T1:C0VIDEOS')} by ${mention('slack:T1:U01ALICE')} · [docs](https://x.example/a?b=1&c=2)\n• ${literal('a <b> & *c*')}\nAfter the list.`,
    };
    const blocks = cardToBlocks(card) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'rich_text', 'section']);
    const list = ((blocks[2]?.elements ?? []) as B[])[0] as { type: string; style: string; elements: B[] };
    expect(list).toMatchObject({ type: 'rich_text_list', style: 'bullet' });
    expect(list.elements.map((item) => item.elements)).toEqual([
      [
        { type: 'text', text: 'videos:write', style: { bold: true } },
        { type: 'text', text: ' for ' },
        { type: 'text', text: '/reel create', style: { code: true } },
      ],
      [
        { type: 'channel', channel_id: 'C0VIDEOS' },
        { type: 'text', text: ' by ' },
        { type: 'user', user_id: 'U01ALICE' },
        { type: 'text', text: ' · ' },
        { type: 'link', url: 'https://x.example/a?b=1&c=2', text: 'docs' },
      ],
      // Typed text stays as typed: no formatting, no mention, the characters themselves.
      [{ type: 'text', text: 'a <b> & *c*' }],
    ]);
    expect(blocks[1]?.text).toEqual({ type: 'mrkdwn', text: '*Missing scopes:*' });
    expect(blocks[3]?.text).toEqual({ type: 'mrkdwn', text: 'After the list.' });
    // A single bullet line is no list.
    expect(cardToBlocks({ title: md`One`, text: md`• alone` }).map((b) => b.type)).toEqual([
      'header',
      'section',
    ]);
  });

  it('quotes a script excerpt as rich_text, exactly as the member wrote it', () => {
    const script = 'Octopuses have *three* hearts & <blue> blood.\nThe end.';
    const card: Card = {
      title: md`Create?`,
      fields: [
        { label: md`Model`, value: md`motion_pro`, short: true },
        { label: md`Script`, value: literal(script) },
      ],
    };
    const blocks = cardToBlocks(card) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'rich_text']);
    expect(blocks[2]?.text).toEqual({ type: 'mrkdwn', text: '*Script*' });
    expect(blocks[3]?.elements).toEqual([
      {
        type: 'rich_text_quote',
        elements: [
          { type: 'text', text: 'Octopuses have *three* hearts & <blue> blood.' },
          { type: 'text', text: '\n' },
          { type: 'text', text: 'The end.' },
        ],
      },
    ]);
  });

  it('shows a rendered video as its poster and a Watch / Download MP4 link button', () => {
    const card: Card = {
      title: md`Octopus facts`,
      text: md`Rendered.`,
      video: { url: 'https://cdn.example/v.mp4', poster: 'https://cdn.example/t.jpg', alt: 'Octopus facts' },
      controls: [{ kind: 'button', action: 'video.schedule', value: 'v1', label: 'Schedule' }],
    };
    const blocks = cardToBlocks(card) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks.find((b) => b.type === 'image')).toMatchObject({
      image_url: 'https://cdn.example/t.jpg',
      alt_text: 'Octopus facts',
    });
    const buttons = elements(blocks);
    expect(buttons[0]).toMatchObject({
      url: 'https://cdn.example/v.mp4',
      text: { text: 'Watch / Download MP4' },
    });
    expect(decodeActionId(String(buttons[1]?.action_id))).toBe('video.schedule');
    // No poster: the button alone; the poster that is the card's image already is not shown twice.
    const bare = cardToBlocks({
      title: md`x`,
      video: { url: 'https://cdn.example/v.mp4', alt: 'x' },
    }) as unknown as B[];
    expect(bare.some((b) => b.type === 'image')).toBe(false);
    expect(elements(bare)[0]?.url).toBe('https://cdn.example/v.mp4');
    const same = cardToBlocks({
      title: md`x`,
      image: { url: 'https://cdn.example/t.jpg', alt: 'x' },
      video: { url: 'https://cdn.example/v.mp4', poster: 'https://cdn.example/t.jpg', alt: 'x' },
    }) as unknown as B[];
    expect(same.filter((b) => b.type === 'image')).toHaveLength(1);
  });

  it('puts a section’s thumbnail beside its text when cards are stacked (App Home)', () => {
    const card: Card = {
      title: md`Recent videos`,
      sections: [
        {
          text: md`**Octopus facts**`,
          image: { url: 'https://cdn.example/t.jpg', alt: 'Thumbnail' },
          controls: [{ kind: 'button', action: 'video.render', value: 'v1', label: 'Render' }],
        },
      ],
    };
    const stacked = cardToBlocks(card, { compact: true }) as unknown as B[];
    expect(stacked.map((b) => b.type)).toEqual(['header', 'divider', 'section', 'actions']);
    expect(stacked[2]?.accessory).toEqual({
      type: 'image',
      image_url: 'https://cdn.example/t.jpg',
      alt_text: 'Thumbnail',
    });
    // In a channel the thumbnail stays a full image (options are compared by eye).
    expect((cardToBlocks(card) as unknown as B[]).map((b) => b.type)).toEqual([
      'header',
      'divider',
      'section',
      'image',
      'actions',
    ]);
  });
});
