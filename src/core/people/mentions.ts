/**
 * Mentions in settings (`approvers`, `role`) mapped to the addresses the store keeps, and back.
 * The adapter finds the mentions in what the member typed (`RequestInfo.mentions`: Slack's `<@U1>`, Discord's
 * role syntax, the playground's `@&group`) and gives each with its neutral reference; the core reads no
 * platform syntax. Groups and roles are kept as the `groupReference`s their adapter built, the same
 * references `RequestInfo.memberOf` carries.
 */
import { type Mentioned, userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import type { UserAddress } from '../ports/index.js';
import { type CardText, code, joinText, md, mention, parseMention } from '../text/text.js';

/**
 * Reads a list of mentions (spaces or commas between them) out of `text`, with `mentioned` found in it by the
 * adapter. A word that is no mention is a user error naming it (and, where the platform has them, that a
 * `group` may be mentioned too), so nothing is half-stored.
 */
export function parseMentions(
  text: string,
  { mentioned = [], group }: { mentioned?: readonly Mentioned[] | undefined; group?: string | undefined },
): Result<string[]> {
  const found: { at: number; ref: string }[] = [];
  let rest = text;
  // Longest first, so a mention is never read as a shorter one inside it; each found one is blanked out.
  for (const m of [...mentioned].sort((a, b) => b.text.length - a.text.length)) {
    if (m.text === '') continue;
    for (let at = rest.indexOf(m.text); at >= 0; at = rest.indexOf(m.text)) {
      found.push({ at, ref: m.ref });
      rest = rest.slice(0, at) + ' '.repeat(m.text.length) + rest.slice(at + m.text.length);
    }
  }
  const stray = rest.split(/[\s,]+/).find((word) => word !== '');
  const unread = (value: string) => err(userError('bad-mention', { value, ...(group ? { group } : {}) }));
  if (stray !== undefined) return unread(stray);
  if (found.length === 0) return unread(text.trim());
  const refs = found.sort((a, b) => a.at - b.at).map((f) => f.ref);
  return ok([...new Set(refs)]);
}

/**
 * How a stored reference reads in a card: a mention token (text.ts) that each adapter renders natively.
 * The core never writes platform syntax itself, so adapters can tell its mentions from user text.
 */
export function formatMention(ref: string): CardText {
  return parseMention(ref) ? mention(ref) : code(ref);
}

/** The mentions; `empty` (nobody) for an empty list. Role rules, where everyone is a value: `formatHolders`. */
export const formatMentions = (refs: readonly string[], empty: CardText = md`nobody`): CardText =>
  refs.length === 0 ? empty : joinText(refs.map(formatMention), ', ');

/** Whether the caller is one of `refs`, directly or through a group/role it holds. */
export const isAmong = (
  refs: readonly string[],
  user: UserAddress,
  memberOf: readonly string[] = [],
): boolean => refs.includes(user) || memberOf.some((g) => refs.includes(g));
