/**
 * The `results` watch (DESIGN §4, "results come back to the card"): the posts one key's team put out through
 * the bot, each read back from GET /analytics at about a day after it went out and again at 7 days, when its
 * card's line says "Results at 7 days" and the post is left alone. One watch per key (its target is the key's
 * owner): a look reads the analytics ONCE for every post due then (and those due within the hour), matching
 * each among `topPosts` by the URL the service answered its publish with, or, for a scheduled post (GET
 * /calendar gives no URL), by its video's name (video-api/top-posts.ts, as `schedule … best` joins them).
 * A post the analytics do not report (the older shape has no per-post views; a post outside the top
 * ones; a title that is not unique) gets no line at all rather than "0 views"; at 7 days it is dropped either
 * way, and the watch ends with its last post. Its looks can wait for looks at running jobs (deferrable).
 */
import type { ConversationAddress, Store, UserAddress, Watch } from '../ports/index.js';
import { type TopPost, topPostsByTitle } from '../video-api/top-posts.js';
import { updateVideoCard, videoState } from './projections.js';
import { type PostResult, withResult } from './video-card-results.js';
import type { WatchContext, Watcher, WatchResult } from './watcher.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The first reading, and the last one: the line then says so and is left alone. */
export const FIRST_READING_MS = DAY;
export const FINAL_READING_MS = 7 * DAY;
/** A look reads every post due within this much of it too ("about 24 h"): one call serves them all. */
const BATCH_MS = HOUR;
/** How long past a post's last reading the watch still tries (its looks may be deferred for the budget). */
const GRACE_MS = DAY;

/** One post followed: its video, where it went out (and its link), when, and which reading is next. */
export interface FollowedResult {
  videoId: string;
  platform: string;
  /** The URL the service answered a publish with; a scheduled post has none. */
  postUrl?: string;
  /** A scheduled post's video name, the title it is joined by. */
  title?: string;
  /** When it went out (epoch ms). */
  at: number;
  next: 'day' | 'week';
}

export interface ResultsWatchState {
  posts: FollowedResult[];
}

/** Reads a stored state tolerantly: a post without its time, or with neither link nor title, is dropped. */
export function readResultsState(raw: Record<string, unknown>): ResultsWatchState {
  const posts: FollowedResult[] = [];
  for (const p of Array.isArray(raw.posts) ? (raw.posts as unknown[]) : []) {
    const post = (p ?? {}) as Record<string, unknown>;
    const { videoId, platform, postUrl, title, at, next } = post;
    if (typeof videoId !== 'string' || typeof platform !== 'string' || typeof at !== 'number') continue;
    const by = typeof postUrl === 'string' ? { postUrl } : typeof title === 'string' ? { title } : undefined;
    if (by) posts.push({ videoId, platform, ...by, at, next: next === 'week' ? 'week' : 'day' });
  }
  return { posts };
}

/** What names a post followed: its URL, else its video, platform and time. */
const keyOf = (p: Omit<FollowedResult, 'next'>): string => p.postUrl ?? `${p.videoId}:${p.platform}@${p.at}`;

const dueAt = (p: FollowedResult): number => p.at + (p.next === 'day' ? FIRST_READING_MS : FINAL_READING_MS);
const firstDue = (posts: readonly FollowedResult[]): number => Math.min(...posts.map(dueAt));
const lastEnd = (posts: readonly FollowedResult[]): number =>
  Math.max(...posts.map((p) => p.at + FINAL_READING_MS)) + GRACE_MS;

/**
 * Starts following a post's results, folded into the key's one results watch (a post already followed is
 * left as it is). Call inside the transaction that records the post on its video's card.
 */
export async function watchResults(
  store: Store,
  input: {
    owner: UserAddress;
    conversation: ConversationAddress;
    post: Omit<FollowedResult, 'next'>;
  },
): Promise<Watch> {
  const existing = await store.watches.findActive('results', input.owner);
  const kept = existing ? readResultsState(existing.state).posts : [];
  // Recorded again (a replayed commit): it keeps its time and its next reading.
  if (existing && kept.some((p) => keyOf(p) === keyOf(input.post))) return existing;
  const posts = [...kept, { ...input.post, next: 'day' as const }];
  if (existing) await store.watches.update(existing.id, { status: 'done' });
  const state: ResultsWatchState = { posts };
  return await store.watches.add({
    kind: 'results',
    target: input.owner,
    owner: input.owner,
    conversation: input.conversation,
    cardKey: null,
    state: state as unknown as Record<string, unknown>,
    nextCheckAt: firstDue(posts),
    expiresAt: lastEnd(posts),
  });
}

/** One reading to put on a card. */
interface Reading {
  post: FollowedResult;
  result: PostResult;
}

/** Each reading on its video's card (every projection), named once per post and reading. */
async function showReadings(store: Store, readings: readonly Reading[]): Promise<void> {
  for (const { post, result } of readings) {
    const results = withResult((await videoState(store, post.videoId))?.results, result);
    await updateVideoCard(store, post.videoId, {
      patch: { results },
      dedupeKey: `results:${keyOf(post)}:${result.final ? 'week' : 'day'}`,
    });
  }
}

/**
 * The top post of each due post: the one with its URL; for a scheduled post, the one top post of its platform
 * titled its video's name, unless a followed post's URL names it (then it is that post's, not this one's).
 */
function topPostsOf(
  posts: readonly FollowedResult[],
  due: readonly FollowedResult[],
  topPosts: readonly TopPost[],
): Map<FollowedResult, TopPost> {
  const found = new Map<FollowedResult, TopPost>();
  const urls = new Set(posts.flatMap((p) => (p.postUrl ? [p.postUrl] : [])));
  for (const post of due) {
    const top = post.postUrl
      ? topPosts.find((t) => t.postUrl === post.postUrl)
      : topPostsByTitle(
          topPosts.filter((t) => t.platform === post.platform),
          urls,
        ).get(post.title?.trim() ?? '');
    if (top) found.set(post, top);
  }
  return found;
}

export const resultsWatcher: Watcher = {
  kind: 'results',
  minIntervalMs: MINUTE,
  maxIntervalMs: FINAL_READING_MS,
  // Views a day old can wait for looks at running jobs.
  deferrable: () => true,

  async check(ctx: WatchContext, watch: Watch): Promise<WatchResult> {
    const { posts } = readResultsState(watch.state);
    if (posts.length === 0) return { state: watch.state, done: true };
    const due = posts.filter((p) => dueAt(p) <= ctx.now + BATCH_MS);
    if (due.length === 0)
      return { state: watch.state, done: false, nextCheckInMs: firstDue(posts) - ctx.now };
    const analytics = await ctx.api.analytics.get(undefined, { priority: 'background' });
    const found = topPostsOf(posts, due, analytics.topPosts);

    const readings: Reading[] = [];
    const left: FollowedResult[] = [];
    for (const post of posts) {
      if (!due.includes(post)) {
        left.push(post);
        continue;
      }
      // A look late enough (deferred, or a restart) that the post is a week old reads it for the last time.
      const final = post.next === 'week' || ctx.now + BATCH_MS >= post.at + FINAL_READING_MS;
      const top = found.get(post);
      if (top?.postUrl) {
        readings.push({
          post,
          result: { platform: post.platform, url: top.postUrl, views: top.views, final },
        });
      }
      if (!final) left.push({ ...post, next: 'week' });
    }
    ctx.logger.debug(
      { read: due.length, reported: readings.length, left: left.length },
      'post results read from the analytics',
    );
    const state: ResultsWatchState = { posts: left };
    return {
      state: state as unknown as Record<string, unknown>,
      done: left.length === 0,
      ...(left.length > 0 ? { nextCheckInMs: Math.max(0, firstDue(left) - ctx.now) } : {}),
      apply: (store) => showReadings(store, readings),
    };
  },

  // Results are a bonus on a card that is done: a watch that stops early (key unlinked, past its last
  // reading) leaves the lines as they were, without a word.
  async expire(): Promise<void> {},
};
