/** Cards → one Components V2 container, within Discord's limits whatever the core hands over. */
import { describe, expect, it } from 'vitest';
import { componentCount } from '../../adapters/discord/components/parts.js';
import { TONE_COLORS } from '../../adapters/discord/components.js';
import { md } from '../../src/core/text/text.js';
import { cardText } from '../support/card-text.js';
import { buttons, render, V2 } from './checked-render.js';
import { containerOf, galleriesOf, sectionsOf, textDisplaysOf, textOf } from './read-message.js';
import type { Json } from './world.js';

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

  it('shows a long table as whole rows, then how many more there are', () => {
    const payload = render({
      title: md`Calendar`,
      text: md`Showing the first 150 of 150.`,
      table: {
        caption: 'Posts',
        columns: [{ label: 'When' }, { label: 'Platform' }, { label: 'Video' }],
        rows: Array.from({ length: 150 }, (_, i) => [
          cardText(`Tue 1 Dec, 09:${String(i % 60).padStart(2, '0')}`),
          md`YouTube`,
          cardText(`Episode ${i + 1} of the long-running series`),
        ]),
      },
    });
    const texts = textDisplaysOf(payload);
    expect(texts.join('').length).toBeLessThanOrEqual(4000);
    const table = texts.find((t) => t.startsWith('• **Tue 1 Dec'));
    const lines = table?.split('\n') ?? [];
    const rows = lines.filter((l) => l.startsWith('• '));
    expect(rows.length).toBeGreaterThan(20);
    // Every row shown is whole, and the last line counts the others: nothing is cut mid-row.
    for (const row of rows) expect(row).toMatch(/ · Episode \d+ of the long-running series$/);
    expect(lines.at(-1)).toBe(`…and ${150 - rows.length} more rows.`);
  });
});
