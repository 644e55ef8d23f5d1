/**
 * The media the simulator serves: a finished render (and the real profile's preview) is a real,
 * playable clip, served as a player reads it: `video/mp4`, whole or by byte ranges.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createVideo, type Harness, renderedVideo, startHarness } from './harness.js';

let h: Harness;
afterEach(() => h?.close());

const renderUrl = async (id: string): Promise<string> =>
  (await h.api<{ renderedVideoUrl: string }>('GET', `/videos/${id}`)).json.data.renderedVideoUrl;

describe('media: the rendered video', () => {
  it('is an MP4 clip of a few seconds, not a placeholder text', async () => {
    h = await startHarness();
    const url = await renderUrl(await renderedVideo(h));
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes.length).toBeLessThan(100_000);
    // An ISO media file: its first box is `ftyp`, and the H.264 track is declared (`avc1`).
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(bytes.includes(Buffer.from('avc1'))).toBe(true);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  });

  it('answers byte ranges as players ask for them (206), and refuses one past the end (416)', async () => {
    h = await startHarness();
    const url = await renderUrl(await renderedVideo(h));
    const full = await fetch(url);
    const whole = Buffer.from(await full.arrayBuffer());
    const first = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${whole.length}`);
    expect(Buffer.from(await first.arrayBuffer())).toEqual(whole.subarray(0, 100));
    const rest = await fetch(url, { headers: { range: `bytes=${whole.length - 10}-` } });
    expect(rest.status).toBe(206);
    expect(Buffer.from(await rest.arrayBuffer())).toEqual(whole.subarray(whole.length - 10));
    const tail = await fetch(url, { headers: { range: 'bytes=-5' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 5));
    const past = await fetch(url, { headers: { range: `bytes=${whole.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  it('on the real profile, the preview linked while generating plays the same clip', async () => {
    h = await startHarness({ profile: 'real' });
    const id = await createVideo(h);
    const status = await h.api<{ renderedVideoUrl: string }>('GET', `/videos/${id}/status`);
    const preview = await fetch(status.json.data.renderedVideoUrl);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('video/mp4');
    await preview.arrayBuffer();
  });
});
