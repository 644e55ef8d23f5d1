/**
 * `voices [--language L]`: the team's voice catalog (cached a few minutes), grouped by language, with the
 * team's custom voices and the recommended ones marked and a preview link each.
 */

import type { CommandContext } from '../../dispatch/context.js';
import { plural } from '../../format/account.js';
import { defineCommand } from '../../parse/command-spec.js';
import type { Section } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { type CardText, code, command, hole, joinText, link, literal, md } from '../../text/text.js';
import type { Voice } from '../../video-api/video-api.js';

/** Enough for a chat message; a long catalog asks to narrow down. */
const MAX_SHOWN = 40;

export const voicesCommand = defineCommand({
  name: 'voices',
  summary: 'List the voices your team can use (custom and recommended marked)',
  options: [
    {
      name: 'language',
      kind: 'string',
      description: 'Only voices for a language (`en`, `es`, `French`…)',
      maxLength: 40,
    },
  ],
  examples: ['voices', 'voices --language es'],
  details: md`⭐ marks recommended voices, 🧬 your team's cloned voices. Pass the id (or name) to ${command('create', [], { voice: hole('id') })}.`,
  async run(ctx, args) {
    const api = await ctx.api();
    const all = await ctx.deps.catalog.voices(api, await ctx.apiKeyId());
    const wanted = args.language ? await languageCode(ctx, args.language) : undefined;
    const voices = wanted ? all.filter((v) => speaks(v, wanted)) : all;

    if (voices.length === 0) {
      const known = [...new Set(all.map((v) => v.labels?.language).filter(Boolean))].sort().join(', ');
      return message({
        title: md`No voices found`,
        tone: 'info',
        text: wanted
          ? md`No voice speaks ${code(args.language ?? '')}.${known ? md` Languages with voices: ${literal(known)}.` : md``}`
          : md`Your team has no voices available.`,
      });
    }

    const sorted = [...voices].sort(
      (a, b) =>
        Number(b.isCustom) - Number(a.isCustom) ||
        Number(b.isRecommended ?? false) - Number(a.isRecommended ?? false) ||
        a.name.localeCompare(b.name),
    );
    const shown = sorted.slice(0, MAX_SHOWN);
    // Filtered, one list: a multilingual voice of another language is as good a pick as a native one.
    const groups = new Map<string, Voice[]>();
    for (const v of shown) {
      const lang = wanted ?? (v.labels?.language || 'other');
      groups.set(lang, [...(groups.get(lang) ?? []), v]);
    }
    const sections: Section[] = [...groups.entries()]
      .sort(([a], [b]) => (a === 'other' ? 1 : b === 'other' ? -1 : a.localeCompare(b)))
      .map(([lang, list]) => ({
        text: md`**${literal(lang)}** (${list.length})\n${joinText(
          list.map((v) => voiceLine(v, wanted)),
          '\n',
        )}`,
      }));
    const more =
      sorted.length > shown.length
        ? md` Showing ${shown.length} of ${sorted.length}; narrow it with \`--language\`.`
        : md``;
    return message({
      title: wanted ? md`Voices for ${literal(args.language ?? wanted)}` : md`Voices`,
      tone: 'info',
      text: md`${plural(voices.length, 'voice')}. ⭐ recommended · 🧬 your team's custom voice.${more}`,
      sections,
      context: md`Use one with ${command('create', [], { voice: hole('id or name') })}.`,
    });
  },
});

function voiceLine(v: Voice, wanted: string | undefined): CardText {
  const marks = md`${v.isCustom ? md` 🧬` : md``}${v.isRecommended ? md` ⭐` : md``}`;
  const native = v.labels?.language;
  const facts = [
    v.labels?.gender,
    v.labels?.accent,
    // `standard` says nothing; a tier equal to the accent (`custom`) is said once.
    v.qualityTier && v.qualityTier !== 'standard' ? v.qualityTier : undefined,
    wanted && native && !native.toLowerCase().startsWith(wanted)
      ? `multilingual, native ${native}`
      : undefined,
  ].filter((f, i, all): f is string => Boolean(f) && all.indexOf(f) === i);
  const preview = v.previewUrl ? md` · ${link('preview', v.previewUrl)}` : md``;
  const about = facts.length > 0 ? md` — ${literal(facts.join(' · '))}` : md``;
  return md`• **${literal(v.name)}**${marks}${about}${preview} · ${code(v.id)}`;
}

function speaks(v: Voice, code: string): boolean {
  const langs = [v.labels?.language, ...(v.targetLanguages ?? [])]
    .filter(Boolean)
    .map((l) => String(l).toLowerCase());
  // `en` matches `en-US` too.
  return langs.some((l) => l === code || l.startsWith(`${code}-`) || l.startsWith(`${code}_`));
}

/** `es`, `ES` or `Spanish` → `es`, using the languages catalog for names (cached; a failure keeps the word). */
async function languageCode(ctx: CommandContext, input: string): Promise<string> {
  const word = input.trim().toLowerCase();
  if (word.length <= 3 || /^[a-z]{2,3}[-_]/.test(word)) return word;
  try {
    const catalog = await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), 'languages');
    const hit = catalog.items.find((i) => i.name.toLowerCase() === word || i.value.toLowerCase() === word);
    return hit ? hit.value.toLowerCase() : word;
  } catch {
    return word;
  }
}
