/**
 * `asset <url> [--name N] [--type MIME]`: registers already-hosted media (POST /assets). One idempotency
 * key per user action: the same user registering the same thing again soon (a double submit, a retry after
 * a timeout) reuses it, so the service replays instead of registering twice (src/core/dispatch/request-id.ts).
 */

import { userError } from '../../dispatch/context.js';
import { actionKey } from '../../dispatch/request-id.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { message, type Response } from '../../text/cards.js';
import { bareUrl, code, command, literal, md } from '../../text/text.js';

/** `type/subtype`, optionally with parameters (`video/mp4; codecs=avc1`). */
const MIME = /^[a-z]+\/[a-z0-9][a-z0-9.+-]*(\s*;\s*[a-z0-9-]+=[^;\s]+)*$/i;

export const assetCommand: CommandSpec = defineCommand({
  name: 'asset',
  summary: 'Register a hosted video, image or audio file by its public URL',
  options: [
    { name: 'url', kind: 'url', positional: true, required: true, description: 'Public URL of the file' },
    { name: 'name', kind: 'string', description: 'A name to find it by', maxLength: 120 },
    { name: 'type', kind: 'string', description: 'MIME type hint, e.g. video/mp4', maxLength: 100 },
  ],
  examples: [
    'asset https://cdn.example.com/intro.mp4 --name "Intro clip" --type video/mp4',
    'asset https://cdn.example.com/logo.png',
  ],
  details: md`The file stays where it is hosted; the service keeps a reference. No bytes are uploaded from chat.`,
  async run(ctx, args): Promise<Response> {
    const type = args.type?.trim();
    if (type !== undefined && !MIME.test(type)) throw userError('bad-mime', { value: type });
    const idempotencyKey = await actionKey(ctx, {
      action: 'asset',
      payload: [args.url, args.name ?? null, type ?? null],
    });
    const api = await ctx.api();
    const asset = await api.assets.create(
      { url: args.url, ...(args.name ? { name: args.name } : {}), ...(type ? { fileType: type } : {}) },
      { idempotencyKey },
    );
    const isMedia = type
      ? /^(video|audio)\//i.test(type)
      : /\.(mp4|mov|webm|mp3|wav|m4a)(\?|$)/i.test(args.url);
    return message({
      title: md`Asset registered`,
      tone: 'success',
      fields: [
        { label: md`Name`, value: literal(asset.name || args.name || '—'), short: true },
        { label: md`Id`, value: code(asset.id), short: true },
        { label: md`URL`, value: bareUrl(asset.url) },
      ],
      ...(isMedia ? { context: md`Caption it with ${command('caption', [asset.url])}.` } : {}),
    });
  },
});
