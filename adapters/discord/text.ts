/**
 * The core's card markdown → Discord markdown, and who a message may ping.
 *
 * The core's subset is Discord's (`**bold**`, `_italic_`, `` `code` ``, `[label](url)`), and Discord reads a
 * backslash before punctuation as "this character, literally", so escaped characters keep their backslash,
 * except inside code spans, where Discord shows backslashes as typed. Mention tokens become `<@id>`,
 * `<@&role>` and `<#channel>`. Pings are a separate matter: embeds never ping, and every message goes out with
 * `allowed_mentions` naming only the people of the card's `notify` list, so `@everyone`, `@here` or a
 * mention in a name never ping anyone.
 */
import type { APIAllowedMentions } from 'discord.js';
import {
  type MentionTarget,
  type Piece,
  parseMention,
  plainPiece,
  restore,
  shield,
  toPlainText,
} from '../../src/core/index.js';

/** A code block (```…```, may span lines) or an inline code span. */
const CODE = /```([\s\S]*?)```|`([^`\n]+)`/g;
/** Discord caps `allowed_mentions.users` and `.roles` at 100 entries each. */
const MAX_ALLOWED = 100;

function discordMention(target: MentionTarget): string | undefined {
  // Discord ids are snowflakes: anything else is shown as text, never sent as mention syntax.
  if (target.platform !== 'discord' || !/^\d+$/.test(target.id)) return undefined;
  if (target.kind === 'group') return `<@&${target.id}>`;
  if (target.kind === 'channel') return `<#${target.id}>`;
  return target.kind === 'user' ? `<@${target.id}>` : undefined;
}

/** Outside code: keep the backslash (Discord's own escape); mentions of another platform read as `@id`. */
function inProse(piece: Piece): string {
  if (piece.kind === 'mention') return discordMention(piece.target) ?? `\\${plainPiece(piece)}`;
  // Commands are written in Discord's syntax before this (command-names.ts); the grammar is the fallback.
  if (piece.kind === 'command') return codeSpan(plainPiece(piece));
  // ⟦ and ⟧ mean nothing to Discord: no backslash needed.
  return piece.char === '⟦' || piece.char === '⟧' ? piece.char : `\\${piece.char}`;
}

const inCode = (piece: Piece): string => plainPiece(piece);

/** A code span whose text may hold a backtick: Discord then needs double backticks around spaces. */
const codeSpan = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/** Card markdown → Discord markdown (descriptions, field names and values, titles). */
export function toDiscord(text: string): string {
  const { text: held, pieces } = shield(text);
  const withCode = held.replace(CODE, (_, block: string | undefined, inline: string | undefined) =>
    block !== undefined
      ? `\`\`\`${restore(block, pieces, inCode).replace(/```/g, "'''")}\`\`\``
      : codeSpan(restore(inline as string, pieces, inCode)),
  );
  return restore(withCode, pieces, inProse);
}

/** Card markdown → plain text (footers show no markdown): markers dropped, escapes undone, mentions as `@id`. */
export const plainText = (text: string): string => toPlainText(text);

/** Mentions of the card's `notify` list for the message content (the only part of a message that pings). */
export function notifyContent(refs: readonly string[] | undefined): string | undefined {
  const mentions = (refs ?? []).flatMap((ref) => {
    const target = parseMention(ref);
    const rendered = target && discordMention(target);
    return rendered ? [rendered] : [];
  });
  return mentions.length > 0 ? [...new Set(mentions)].join(' ') : undefined;
}

/** `allowed_mentions` naming exactly the users and roles of `refs`; nothing is parsed from the text. */
export function allowedMentions(refs: readonly string[] | undefined): APIAllowedMentions {
  const users = new Set<string>();
  const roles = new Set<string>();
  for (const ref of refs ?? []) {
    const target = parseMention(ref);
    if (target?.platform !== 'discord' || !/^\d+$/.test(target.id)) continue;
    if (target.kind === 'user') users.add(target.id);
    if (target.kind === 'group') roles.add(target.id);
  }
  return {
    parse: [],
    ...(users.size > 0 ? { users: [...users].slice(0, MAX_ALLOWED) } : {}),
    ...(roles.size > 0 ? { roles: [...roles].slice(0, MAX_ALLOWED) } : {}),
  };
}

/** Nothing pings (forms, error notes). */
export const NO_PINGS: APIAllowedMentions = { parse: [] };
