/**
 * `options [kind]`: one catalog of values accepted by `create` and `series create` (cached a few minutes).
 * Without a kind it lists the kinds the service lists (GET /options without `kind`, read tolerantly, see
 * src/api/wire/catalog.ts); when that listing cannot be read, the documented kinds.
 */

import type { CommandContext } from '../../dispatch/context.js';
import { plural } from '../../format/account.js';
import { defineCommand } from '../../parse/command-spec.js';
import { message } from '../../text/cards.js';
import { type CardText, code, command, hole, joinText, literal, md } from '../../text/text.js';
import { OPTION_KINDS, type OptionItem, type OptionKind, VideoApiError } from '../../video-api/video-api.js';

/** Where each catalog's values go, so the list is actionable. */
const USED_BY: Record<OptionKind, CardText> = {
  sources: md`\`series create\` (source)`,
  styles: md`\`create --style\`, \`series create\` (style)`,
  niches: md`\`series create\` (niche)`,
  languages: md`\`create --language\`, \`series create\` (language)`,
  durations: md`\`series create\` (duration, seconds)`,
  models: md`\`create --model\`, \`series create\` (model)`,
  captionThemes: md`\`series create --captions\``,
  music: md`\`series create --mood\``,
  backgrounds: md`\`series create --background\``,
  subreddits: md`\`series create --subreddit\` (with the Reddit source)`,
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
        title: md`Option catalogs`,
        tone: 'info',
        text: joinText(kinds.map(kindLine), '\n'),
        context: md`Show one with ${command('options', [hole('kind')])}, e.g. ${command('options', ['models'])}.${
          listed
            ? md``
            : md` (The video service did not list its catalogs just now: these are the documented ones.)`
        }`,
      });
    }
    const kind = args.kind as OptionKind;
    const catalog = await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), kind);
    const items = catalog.items;
    if (items.length === 0) {
      return message({
        title: md`Options: ${literal(kind)}`,
        tone: 'info',
        text: md`The video service lists no ${literal(kind)} for your team.`,
      });
    }
    const shown = items.slice(0, MAX_SHOWN);
    const more = items.length > shown.length ? md`\n…and ${items.length - shown.length} more.` : md``;
    return message({
      title: md`Options: ${literal(kind)}`,
      tone: 'info',
      text: md`${joinText(shown.map(itemLine), '\n')}${more}`,
      context: md`${plural(items.length, 'value')} · use the \`code\` value with ${USED_BY[kind]}`,
    });
  },
});

const isKnownKind = (kind: string): kind is OptionKind => (OPTION_KINDS as readonly string[]).includes(kind);

function kindLine(kind: string): CardText {
  return isKnownKind(kind) ? md`• \`${literal(kind)}\` — for ${USED_BY[kind]}` : md`• ${code(kind)}`;
}

/** The kinds as the service lists them; undefined when it cannot be read or lists nothing usable. */
async function listedKinds(ctx: CommandContext): Promise<string[] | undefined> {
  let kinds: string[];
  try {
    const api = await ctx.api();
    kinds = await api.options.kinds();
  } catch (error) {
    if (error instanceof VideoApiError) return undefined;
    throw error;
  }
  const usable = [...new Set(kinds.map((k) => k.trim()).filter((k) => /^[A-Za-z][\w-]{0,39}$/.test(k)))];
  return usable.length > 0 ? usable : undefined;
}

function itemLine(item: OptionItem): CardText {
  const cost = item.credits !== undefined ? md` · ${plural(item.credits, 'credit')} per video` : md``;
  const label = item.name && item.name !== item.value ? md`**${literal(item.name)}** — ` : md``;
  return md`• ${label}${code(item.value)}${cost}`;
}
