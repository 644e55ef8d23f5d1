/**
 * Only http(s) URLs of a sane length cross the client boundary: a hostile or broken service's
 * `javascript:` / `data:` URL never reaches a chat block, button or embed. A thumbnail variant without a usable
 * URL is dropped; an optional URL is dropped; both counted as drift.
 */
import { describe, expect, it } from 'vitest';
import { readTolerantly } from '../../src/api/wire/common.js';
import { ThumbnailsWire } from '../../src/api/wire/thumbnails.js';
import { RenderWire, VideoWire } from '../../src/api/wire/video.js';

const HOSTILE = ['javascript:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'ftp://x/y.png', 'not a url'];

describe('URLs from the service', () => {
  it.each(HOSTILE)('drops %s from a render, a video and a thumbnail variant', (bad) => {
    const render = readTolerantly(RenderWire, { renderId: 'r1', status: 'done', url: bad });
    expect(render.ok && render.data.url).toBeUndefined();
    expect(render.ok && [...render.drift.keys()]).toEqual(['url']);

    const video = readTolerantly(VideoWire, {
      id: 'v1',
      name: 'V',
      renderedVideoUrl: bad,
      thumbnailUrl: bad,
    });
    expect(video.ok && video.data.renderedVideoUrl).toBeUndefined();
    expect(video.ok && video.data.thumbnailUrl).toBeUndefined();

    const thumbs = readTolerantly(ThumbnailsWire, {
      status: 'ready',
      variants: [
        { id: 't1', url: bad },
        { id: 't2', url: 'https://cdn.example.com/t2.png' },
      ],
    });
    expect(thumbs.ok && thumbs.data.variants?.map((v) => v.id)).toEqual(['t2']);
  });

  it('keeps http and https URLs, and drops one longer than 2 KB', () => {
    for (const good of ['https://cdn.example.com/a.mp4?sig=abc', 'http://127.0.0.1:4010/media/a.mp4']) {
      const read = readTolerantly(RenderWire, { renderId: 'r1', status: 'done', url: good });
      expect(read.ok && read.data.url).toBe(good);
    }
    const long = `https://cdn.example.com/${'a'.repeat(2100)}`;
    const read = readTolerantly(RenderWire, { renderId: 'r1', status: 'done', url: long });
    expect(read.ok && read.data.url).toBeUndefined();
  });
});
