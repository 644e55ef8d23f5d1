/**
 * A card's charts on Discord, through the real discord.js client against the fake Discord: `analytics` answers
 * with the chart drawn as a PNG attached to the message and shown in its media gallery, the chart's numbers
 * as the image's description. Gateway and HTTP interactions, on both simulator profiles.
 */
import { afterEach, describe, expect, it } from 'vitest';
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
      const gallery = allComponents(answer.components).find(
        (c) =>
          c.type === 12 &&
          c.items.some((i: { media: { url: string } }) => i.media.url === 'attachment://chart-1.png'),
      );
      expect(gallery?.items[0]?.description).toMatch(/^Views per platform \(views\):[ \n]/);
      expect(textOf(answer)).not.toContain('attachment://');
    });
  }
});
