/** Files sent with a Discord message: exports as File components, charts as PNGs the card's gallery shows. */
import { ComponentType, MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  chartUploads,
  droppingCharts,
  multipartBody,
  type Upload,
  withFiles,
} from '../../adapters/discord/files.js';
import type { Card } from '../../src/core/index.js';
import { md } from '../../src/core/text/text.js';

const csv: Upload = {
  filename: 'audit.csv',
  content: '"a","b"\r\n',
  contentType: 'text/csv',
  shownAs: 'file',
};
const card: Card = {
  title: md`Analytics`,
  charts: [
    {
      kind: 'bar',
      title: 'Views gained per platform',
      categories: ['YouTube', 'TikTok'],
      series: [{ name: 'Views', values: [1204, 880] }],
      unit: 'views',
    },
  ],
};

/** The parts of a multipart body, by name, with their bytes. */
function partsOf(body: Buffer, contentType: string): Map<string, Buffer> {
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1] as string;
  const parts = new Map<string, Buffer>();
  let at = body.indexOf(`--${boundary}\r\n`);
  while (at >= 0) {
    const start = at + boundary.length + 4;
    const next = body.indexOf(`\r\n--${boundary}`, start);
    if (next < 0) break;
    const part = body.subarray(start, next);
    const split = part.indexOf('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(part.subarray(0, split).toString('utf8'))?.[1] as string;
    parts.set(name, part.subarray(split + 4));
    at = next + 2;
  }
  return parts;
}

describe('uploads', () => {
  it('draws each chart as a PNG named for the gallery, with its numbers as the alt text', async () => {
    const [chart] = await chartUploads(card);
    expect(chart?.filename).toBe('chart-1.png');
    expect(chart?.shownAs).toBe('gallery');
    expect(chart?.description).toBe('Views gained per platform (views): YouTube 1,204 · TikTok 880.');
    expect(
      Buffer.from(chart?.content as Uint8Array)
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
  });

  it('names every file, and adds a File component only for exports', () => {
    const chart: Upload = {
      filename: 'chart-1.png',
      content: new Uint8Array([1]),
      contentType: 'image/png',
      description: 'numbers',
      shownAs: 'gallery',
    };
    const data = withFiles({ flags: MessageFlags.IsComponentsV2, components: [] }, [csv, chart]);
    expect(data.attachments).toEqual([
      { id: '0', filename: 'audit.csv' },
      { id: '1', filename: 'chart-1.png', description: 'numbers' },
    ]);
    expect(data.components).toEqual([{ type: ComponentType.File, file: { url: 'attachment://audit.csv' } }]);
  });

  it('lists the files an edit keeps by id, then its new ones by index', () => {
    const data = withFiles({ flags: MessageFlags.IsComponentsV2, components: [] }, [csv], [{ id: '900' }]);
    expect(data.attachments).toEqual([{ id: '900' }, { id: '0', filename: 'audit.csv' }]);
  });

  it('drops chart files an edit no longer shows, keeping the others, and leaves files without charts alone', () => {
    const held = [
      { id: '900', filename: 'audit.csv' },
      { id: '901', filename: 'chart-1.png' },
    ];
    expect(droppingCharts(held)).toEqual([{ id: '900' }]);
    expect(droppingCharts([{ id: '901', filename: 'chart-1.png' }])).toEqual([]);
    expect(droppingCharts([{ id: '900', filename: 'audit.csv' }])).toBeUndefined();
    expect(droppingCharts(undefined)).toBeUndefined();
  });

  it('sends binary files byte for byte beside the JSON payload', async () => {
    const [chart] = await chartUploads(card);
    const { body, headers } = multipartBody({ flags: MessageFlags.IsComponentsV2, components: [] }, [
      csv,
      chart as Upload,
    ]);
    const parts = partsOf(body, headers['Content-Type']);
    expect(JSON.parse(parts.get('payload_json')?.toString('utf8') ?? '').attachments).toHaveLength(2);
    expect(parts.get('files[0]')?.toString('utf8')).toBe(csv.content);
    expect(parts.get('files[1]')?.equals(Buffer.from(chart?.content as Uint8Array))).toBe(true);
  });
});
