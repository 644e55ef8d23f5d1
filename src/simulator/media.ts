/**
 * Small generated images behind the URLs the simulator hands out, so a browser (the playground, a chat
 * client) can display thumbnails and b-roll frames, and a real few-second clip behind every finished render,
 * so a player can play it. No authentication: URLs are unguessable enough for a demo.
 */
import { readFileSync } from 'node:fs';
import type { Engine } from './engine.js';

export interface MediaResponse {
  status: number;
  contentType: string;
  /** Text, or the bytes of a clip (served with byte ranges, as players ask for them). */
  body: string | Buffer;
}

let clip: Buffer | undefined;

/**
 * The clip every finished render (and the real profile's preview) plays: 4 s of moving gradients with a soft
 * tone, H.264 + AAC in an MP4, 35 KB, made by `assets/make-demo-clip.sh` and committed. Read once, when asked.
 */
export function demoClip(): MediaResponse {
  clip ??= readFileSync(new URL('./assets/demo-clip.mp4', import.meta.url));
  return { status: 200, contentType: 'video/mp4', body: clip };
}

const THUMB = /^\/media\/thumb\/([0-9a-f]{24})\/(\d{1,4})\.svg$/;
const BROLL = /^\/media\/broll\/([0-9a-f]{24})\/(\d{1,4})\.svg$/;
const RENDER = /^\/media\/render\/([0-9a-f]{24})\.mp4$/;

export function serveMedia(engine: Engine, path: string): MediaResponse {
  const thumb = THUMB.exec(path);
  if (thumb) {
    const video = engine.store.videos.get(thumb[1]!);
    const variant = video?.thumbnails.variants.find((v) => v.n === Number(thumb[2]));
    if (video && variant)
      return svg(
        poster({ seed: `${video.id}/${variant.n}`, headline: variant.hookText, footer: video.name }),
      );
  }
  const broll = BROLL.exec(path);
  if (broll) {
    const video = engine.store.videos.get(broll[1]!);
    if (video)
      return svg(
        poster({ seed: `${video.id}/broll`, headline: video.name, footer: `scene ${Number(broll[2]) + 1}` }),
      );
  }
  const render = RENDER.exec(path);
  // The simulator renders nothing real: every render is the same short clip, so the link plays.
  if (render && engine.store.renders.get(render[1]!)?.status === 'done') return demoClip();
  return { status: 404, contentType: 'text/plain; charset=utf-8', body: 'Not found\n' };
}

function svg(body: string): MediaResponse {
  return { status: 200, contentType: 'image/svg+xml', body };
}

function hue(seed: string): number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return (h >>> 0) % 360;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Greedy word wrap to at most `maxLines` lines of `width` characters. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word.slice(0, width);
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1]!.slice(0, width - 1)}…`;
  }
  return lines;
}

/** A 9:16 poster: two-colour gradient, big headline, small footer. */
function poster({ seed, headline, footer }: { seed: string; headline: string; footer: string }): string {
  const h = hue(seed);
  const lines = wrap(headline.toUpperCase(), 14, 5);
  const top = 320 - (lines.length * 52) / 2;
  const text = lines
    .map((l, i) => `<text x="180" y="${top + i * 52}" text-anchor="middle">${escapeXml(l)}</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="640" viewBox="0 0 360 640">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="hsl(${h},70%,45%)"/><stop offset="1" stop-color="hsl(${(h + 60) % 360},75%,20%)"/>
</linearGradient></defs>
<rect width="360" height="640" fill="url(#g)"/>
<g font-family="Impact, Arial Black, sans-serif" font-size="44" fill="#fff" stroke="#000" stroke-width="2" paint-order="stroke">${text}</g>
<text x="180" y="600" text-anchor="middle" font-family="Arial, sans-serif" font-size="16" fill="#fff" opacity="0.85">${escapeXml(footer.slice(0, 40))}</text>
</svg>
`;
}
