/**
 * The "Results" lines a posted video's card gains (DESIGN §4, "results come back to the card"): each post's
 * views as the service's analytics report them, with the post's link; read at about a day after it went out,
 * then at 7 days, when the line says so and is left alone.
 */
import { platformName } from '../platforms/names.js';
import { type CardText, joinText, link, literal, md } from '../text/text.js';

/** One post's views as last read; `final` once read at 7 days. */
export interface PostResult {
  platform: string;
  url: string;
  views: number;
  final: boolean;
}

const views = (n: number): CardText => literal(`${n.toLocaleString('en-US')} ${n === 1 ? 'view' : 'views'}`);

const onePost = (r: PostResult): CardText =>
  md`${views(r.views)} on ${platformName(r.platform)} (${link('View post', r.url)})`;

/**
 * "📈 Results after a day: 1,234 views on YouTube (View post)" and, for posts read at 7 days, "📈 Results at
 * 7 days: …": one line per reading, posts in the order they went out. Nothing when no post was reported.
 */
export function resultsLines(results: readonly PostResult[] | undefined): CardText | undefined {
  if (!results || results.length === 0) return undefined;
  const lines: CardText[] = [];
  const early = results.filter((r) => !r.final);
  const final = results.filter((r) => r.final);
  if (early.length > 0) lines.push(md`📈 **Results after a day:** ${joinText(early.map(onePost), ' · ')}`);
  if (final.length > 0) lines.push(md`📈 **Results at 7 days:** ${joinText(final.map(onePost), ' · ')}`);
  return joinText(lines, '\n');
}

/** `results` with `next` in place of the reading of the same post (by its link), else added at the end. */
export function withResult(results: readonly PostResult[] | undefined, next: PostResult): PostResult[] {
  const list = [...(results ?? [])];
  const at = list.findIndex((r) => r.url === next.url);
  if (at >= 0) list[at] = next;
  else list.push(next);
  return list;
}
