/**
 * `caption <url> [--name N] [--language L] [--audio | --video]`: captions existing public media (free). Audio
 * files go as `audioUrl` (they become a captioned video), anything else as `videoUrl`; `--audio` or `--video`
 * overrides that guess from the file extension (a URL without one, a stream). Then the same live card and
 * generation watch as `create`.
 */

import { userError } from '../../dispatch/context.js';
import { actionKey } from '../../dispatch/request-id.js';
import { displayName } from '../../format/video.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { message } from '../../text/cards.js';
import { command, literal, md } from '../../text/text.js';
import { catalogValue } from '../../videos/catalog-choices.js';
import { NAME_MAX } from '../../videos/create-request.js';
import { trackGeneration } from '../../videos/tracking.js';

const AUDIO_EXTENSIONS = ['.mp3', '.wav', '.m4a', '.aac', '.ogg'];

/** Audio by file extension of the URL's path (query strings and fragments ignored). */
export function isAudioUrl(url: string): boolean {
  const path = new URL(url).pathname.toLowerCase();
  return AUDIO_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/** The name the service gives captioned media without one: the URL's file name. */
export function nameFromUrl(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop();
  if (!last) return 'Captioned video';
  try {
    return decodeURIComponent(last).slice(0, NAME_MAX);
  } catch {
    return last.slice(0, NAME_MAX);
  }
}

export const captionCommand: CommandSpec = defineCommand({
  name: 'caption',
  summary: 'Caption an existing public video or audio file (free)',
  options: [
    {
      name: 'url',
      kind: 'url',
      positional: true,
      required: true,
      description: 'Public http(s) URL of the video or audio',
    },
    { name: 'name', kind: 'string', maxLength: NAME_MAX, description: 'Video name' },
    {
      name: 'language',
      kind: 'string',
      catalog: 'languages',
      description: `Spoken language, see ${command('options', ['languages'])}`,
    },
    {
      name: 'audio',
      kind: 'boolean',
      advanced: true,
      description: 'The URL is audio (sent as audioUrl), whatever its extension',
    },
    {
      name: 'video',
      kind: 'boolean',
      advanced: true,
      description: 'The URL is a video (sent as videoUrl), whatever its extension',
    },
  ],
  examples: [
    'caption https://cdn.example.com/interview.mp4 --name "Founder interview"',
    'caption https://cdn.example.com/podcast-ep12.mp3 --language en',
    'caption https://cdn.example.com/stream?id=42 --audio',
  ],
  details: md`Audio files (.mp3, .wav, .m4a, .aac, .ogg) become a captioned video; \`--audio\` or \`--video\` says which when the extension does not. Captioning costs no credits.`,
  async run(ctx, args) {
    const url = args.url;
    if (args.audio && args.video) throw userError('caption-audio-and-video');
    const language = args.language
      ? await catalogValue(ctx, { kind: 'languages', option: 'language', typed: args.language })
      : undefined;
    const audio = args.audio ?? (args.video === undefined ? isAudioUrl(url) : !args.video);
    const body = {
      ...(audio ? { audioUrl: url } : { videoUrl: url }),
      ...(args.name ? { name: args.name } : {}),
      ...(language ? { language } : {}),
    };
    // A typed command acting at once: the same command again soon is a retry and captions once.
    const idempotencyKey = await actionKey(ctx, { action: 'caption', payload: body });
    const api = await ctx.api();
    const created = await api.videos.caption(body, { idempotencyKey });
    const name = args.name ?? nameFromUrl(url);
    await trackGeneration(
      ctx,
      {
        videoId: created.id,
        name,
        kind: 'caption',
        requestedBy: displayName(ctx.req),
        phase: 'generating',
        percent: 0,
      },
      { justCreated: true },
    );
    return message({
      title: md`Captioning “${literal(name)}”…`,
      tone: 'progress',
      text: md`Sent as ${audio ? md`audio` : md`video`} (free). The status card in this channel follows it until it is ready.`,
      context: md`id \`${literal(created.id)}\``,
    });
  },
});
