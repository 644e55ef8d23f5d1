/**
 * Joining a post with the analytics' report of it (GET /analytics `topPosts`). A post published now has the
 * URL the service answered with: it is joined by that, exactly. A scheduled post has none (a calendar entry
 * names its video, a top post its title): it is joined when its title is its video's name and exactly one
 * top post of its platform that no known URL names carries it; the rest are left out rather than guessed.
 */
import type { Analytics } from './video-api.js';

export type TopPost = Analytics['topPosts'][number];

/**
 * `top` (one platform's) by title, trimmed, leaving out the posts a URL in `claimed` names (they are other
 * posts') and every title more than one of the rest carries (it could not be joined surely).
 */
export function topPostsByTitle(top: readonly TopPost[], claimed: ReadonlySet<string>): Map<string, TopPost> {
  const seen = new Map<string, TopPost | null>();
  for (const post of top) {
    if (post.postUrl && claimed.has(post.postUrl)) continue;
    const title = post.title.trim();
    seen.set(title, seen.has(title) ? null : post);
  }
  return new Map([...seen].filter((e): e is [string, TopPost] => e[1] !== null));
}
