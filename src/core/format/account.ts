/**
 * Small display helpers shared by the account commands: signed amounts, counts (dates: `time/format.ts`). Numbers are shown plainly (DESIGN §8: a balance of 340 reads "340").
 */
import { type CardText, literal, md } from '../text/text.js';

/** Credits with an explicit sign: `+100`, `-20` (ASCII, as typed and as the API says it: DESIGN §8). */
export const signed = (n: number): CardText => (n > 0 ? md`+${n}` : md`${n}`);

/** `1 video`, `3 videos`. */
export const plural = (n: number, one: string, many = `${one}s`): CardText =>
  md`${n} ${literal(n === 1 ? one : many)}`;

/** A count shown plainly, as the API gave it (DESIGN §8: 12000 reads "12000", no separators). */
export const count = (n: number): CardText => md`${n}`;

/** Cuts a line for a card, keeping it readable. */
export const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
