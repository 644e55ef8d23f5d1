/** Cards → embeds, for clicks on messages posted before Components V2. */
import { describe, expect, it } from 'vitest';
import { TONE_COLORS } from '../../adapters/discord/components.js';
import { embedsSize } from '../../adapters/discord/embeds.js';
import { md } from '../../src/core/text/text.js';
import { cardText } from '../support/card-text.js';
import { buttons, renderEmbeds } from './checked-render.js';

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
      sections,
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

  it('gives a rendered video one Download MP4 link button before the card’s own', () => {
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
