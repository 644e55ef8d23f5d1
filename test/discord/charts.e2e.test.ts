/**
 * A card's charts on Discord, through the real discord.js client against the fake Discord: `analytics` answers
 * with the chart drawn as a PNG attached to the message and shown in its media gallery, the chart's numbers
 * as the image's description. Gateway and HTTP interactions, on both simulator profiles.
 */
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHART_SIZE } from '../../src/charts/render-svg.js';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import { allComponents, textOf } from './read-message.js';
import { discordWorld, type World } from './world.js';

let w: World;
afterEach(() => w.close());

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  for (const mode of ['gateway', 'http'] as const) {
    it(`analytics attaches its chart as a PNG its gallery shows (${mode})`, async () => {
      w = await discordWorld({ mode, harness: { simulator: { profile } } });
      const id = await completedVideo(w.h, 'Octopus facts', { render: true });
      await apiOf(w.h).posts.publish(
        { videoId: id, platform: 'youtube', title: 'Octopus facts' },
        { idempotencyKey: `charts-${mode}` },
      );
      w.h.clock.advance(3 * 24 * 3600_000);

      const answer = w.answer(await w.slash('analytics', { range: '7' }));
      expect(answer.files?.map((f) => [f.field, f.filename, f.contentType])).toEqual([
        ['files[0]', 'chart-1.png', 'image/png'],
      ]);
      const png = answer.files?.[0]?.bytes ?? new Uint8Array();
      expect(Buffer.from(png.subarray(1, 4)).toString('latin1')).toBe('PNG');
      // It decodes, at twice the chart's size (sharp on dense screens), and something is drawn on it.
      const image = PNG.sync.read(Buffer.from(png));
      expect([image.width, image.height]).toEqual([
        DEFAULT_CHART_SIZE.width * 2,
        DEFAULT_CHART_SIZE.height * 2,
      ]);
      expect(luminanceVariance(image)).toBeGreaterThan(200);
      const gallery = allComponents(answer.components).find(
        (c) =>
          c.type === 12 &&
          c.items.some((i: { media: { url: string } }) => i.media.url === 'attachment://chart-1.png'),
      );
      expect(gallery?.items[0]?.description).toMatch(/^Views per platform \(views\):[ \n]/);
      // Its numbers are the simulator's.
      const views = (await apiOf(w.h).analytics.get({ range: 7 })).byPlatform.youtube?.totalViews ?? -1;
      expect(views).toBeGreaterThan(0);
      expect(gallery?.items[0]?.description).toContain(`YouTube ${views.toLocaleString('en-US')}`);
      expect(textOf(answer)).not.toContain('attachment://');
    });
  }
});

/** How much the pixels' brightness varies: near 0 for a blank (one-colour) image. */
function luminanceVariance(image: PNG): number {
  const values: number[] = [];
  for (let i = 0; i < image.data.length; i += 4) {
    const [r = 0, g = 0, b = 0] = image.data.subarray(i, i + 3);
    values.push(0.2126 * r + 0.7152 * g + 0.0722 * b);
  }
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length;
}
