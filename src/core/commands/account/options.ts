/**
 * `options [kind]`: one catalog of values accepted by `create` and `series create` (cached a few minutes).
 * Without a kind it lists the kinds the service lists (GET /options without `kind`, read tolerantly, see
 * src/api/wire/catalog.ts); when that listing cannot be read, the documented kinds.
 */

import type { CommandContext } from '../../dispatch/context.js';
import { plural } from '../../format/account.js';
import { defineCommand } from '../../parse/command-spec.js';
import { message } from '../../text/cards.js';
import { code, command, hole, literal } from '../../text/text.js';
import { OPTION_KINDS, type OptionItem, type OptionKind, VideoApiError } from '../../video-api/video-api.js';

/** Where each catalog's values go, so the list is actionable. */
const USED_BY: Record<OptionKind, string> = {
  sources: '`series create` (source)',
  styles: '`create --style`, `series create` (style)',
  niches: '`series create` (niche)',
  languages: '`create --language`, `series create` (language)',
  durations: '`series create` (duration, seconds)',
  models: '`create --model`, `series create` (model)',
  captionThemes: '`series create --captions`',
  music: '`series create --mood`',
  backgrounds: '`series create --background`',
  subreddits: '`series create --subreddit` (with the Reddit source)',
};

const MAX_SHOWN = 50;

export const optionsCommand = defineCommand({
  name: 'options',
  summary: 'List accepted values: styles, languages, models (with credits), sources…',
  options: [
    {
      name: 'kind',
      kind: 'choice',
      positional: true,
      choices: OPTION_KINDS,
      description: 'Which catalog to list',
    },
  ],
  examples: ['options models', 'options styles', 'options'],
  async run(ctx, args) {
    if (!args.kind) {
      const listed = await listedKinds(ctx);
      const kinds = listed ?? [...OPTION_KINDS];
      return message({
        title: 'Option catalogs',
        tone: 'info',
        text: kinds.map(kindLine).join('\n'),
        context:
          `Show one with ${command('options', [hole('kind')])}, e.g. ${command('options', ['models'])}.` +
          (listed
            ? ''
            : ' (The video service did not list its catalogs just now: these are the documented ones.)'),
      });
    }
    const kind = args.kind as OptionKind;
    const catalog = await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), kind);
    const items = catalog.items;
    if (items.length === 0) {
      return message({
        title: `Options: ${kind}`,
        tone: 'info',
        text: `The video service lists no ${kind} for your team.`,
      });
    }
    const shown = items.slice(0, MAX_SHOWN);
    const more = items.length > shown.length ? `\n…and ${items.length - shown.length} more.` : '';
    return message({
      title: `Options: ${kind}`,
      tone: 'info',
      text: `${shown.map(itemLine).join('\n')}${more}`,
      context: `${plural(items.length, 'value')} · use the \`code\` value with ${USED_BY[kind]}`,
    });
  },
});

const isKnownKind = (kind: string): kind is OptionKind => (OPTION_KINDS as readonly string[]).includes(kind);

function kindLine(kind: string): string {
  return isKnownKind(kind) ? `• \`${kind}\` — for ${USED_BY[kind]}` : `• ${code(kind)}`;
}

/** The kinds as the service lists them; undefined when it cannot be read or lists nothing usable. */
async function listedKinds(ctx: CommandContext): Promise<string[] | undefined> {
  let kinds: string[];
  try {
    kinds = await (await ctx.api()).options.kinds();
  } catch (error) {
    if (error instanceof VideoApiError) return undefined;
    throw error;
  }
  const usable = [...new Set(kinds.map((k) => k.trim()).filter((k) => /^[A-Za-z][\w-]{0,39}$/.test(k)))];
  return usable.length > 0 ? usable : undefined;
}

function itemLine(item: OptionItem): string {
  const cost = item.credits !== undefined ? ` · ${plural(item.credits, 'credit')} per video` : '';
  const label = item.name && item.name !== item.value ? `**${literal(item.name)}** — ` : '';
  return `• ${label}${code(item.value)}${cost}`;
}
