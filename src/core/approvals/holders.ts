/**
 * Who holds a role (DESIGN §5, STYLE 15): `everyone`, or exactly the people and groups listed. An empty list
 * is nobody — what a channel's list and its workspace's leave when they have no one in common — never
 * everyone: combining rules only ever narrows who is admitted.
 */
import { formatMentions, isAmong } from '../people/mentions.js';
import type { Holders, UserAddress } from '../ports/index.js';
import { type CardText, md } from '../text/text.js';

/** The stricter of two rules: whom both admit (`undefined`: `b` sets no rule). Never looser than either. */
export function stricterHolders(a: Holders, b: Holders | undefined): Holders {
  if (b === undefined || b === 'everyone') return a === 'everyone' ? a : [...a];
  if (a === 'everyone') return [...b];
  return a.filter((x) => b.includes(x));
}

/** Whether a rule admits nobody at all. */
export const admitsNobody = (holders: Holders): boolean => holders !== 'everyone' && holders.length === 0;

/** Whether the caller holds the rule: everyone does, else directly or through a group/role they are in. */
export const holds = (holders: Holders, user: UserAddress, memberOf?: readonly string[]): boolean =>
  holders === 'everyone' || isAmong(holders, user, memberOf);

/** The people a rule names (none for `everyone`, which names nobody in particular). */
export const named = (holders: Holders): string[] => (holders === 'everyone' ? [] : holders);

/** `everyone`, `nobody`, or the mentions. */
export const formatHolders = (holders: Holders): CardText =>
  holders === 'everyone' ? md`everyone` : formatMentions(holders, md`nobody`);

/**
 * A rule as a document stored it. Documents written before `everyone` was a value of its own hold `[]` for
 * it, and nothing since writes an empty list (a rule is set from mentions), so `[]` reads as everyone.
 */
export const storedHolders = (holders: Holders | undefined): Holders =>
  holders === undefined || holders === 'everyone' || holders.length === 0 ? 'everyone' : [...holders];
