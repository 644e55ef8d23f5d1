import type { Engine } from '../engine.js';
import type { AccountRec, CalendarRec, PublishedRec, TeamRec, VideoRec } from '../records.js';
import { DAY, type Platform, POST_BLOCK_KEYS } from '../vocabulary.js';
import { latestRender, startRender } from './renders.js';

/** The account a post goes to: the one asked for, else the platform's default, else its first. */
export function accountFor(team: TeamRec, platform: Platform, authId?: string): AccountRec | undefined {
  const accounts = team.accounts[platform];
  if (authId !== undefined) return accounts.find((a) => a.authId === authId);
  return accounts.find((a) => a.isDefault) ?? accounts[0];
}

/** Title used for a post: explicit, else the platform's stored metadata, else the video name. */
export function postTitle(video: VideoRec, platform: Platform, explicit?: string): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const block = video.posts[POST_BLOCK_KEYS[platform]];
  const stored = block?.title ?? block?.caption ?? block?.text ?? block?.description;
  return stored && stored !== '' ? stored : video.name;
}

/** Records a post that went out (it then shows in analytics). */
export function recordPublished(
  engine: Engine,
  post: {
    team: TeamRec;
    video: VideoRec;
    platform: Platform;
    account: AccountRec;
    title: string;
    at: number;
  },
): PublishedRec {
  const id = engine.newId(post.at);
  const rec: PublishedRec = {
    id,
    teamId: post.team.id,
    videoId: post.video.id,
    platform: post.platform,
    at: post.at,
    postUrl: `https://${post.platform}.sim.reelbot.invalid/p/${id}`,
    title: post.title,
    authId: post.account.authId,
    peakViews: engine.rng.content.int(300, 25_000),
    // Views build up over a few (simulated) days.
    tauMs: engine.scaled(3 * DAY),
  };
  engine.store.published.push(rec);
  return rec;
}

/** Views a post has at `now`: a saturating curve from 0 at posting time towards its peak. */
export function viewsAt(post: PublishedRec, now: number): number {
  if (now <= post.at) return 0;
  return Math.floor(post.peakViews * (1 - Math.exp(-(now - post.at) / post.tauMs)));
}

/** Queues the attempt of a calendar entry at its scheduled time. */
export function queueScheduledPost(engine: Engine, entry: CalendarRec): void {
  engine.scheduler.at(entry.scheduledAt, 'post:attempt', (at) => attemptScheduledPost(engine, entry, at));
}

type Readiness = { state: 'ready' } | { state: 'wait'; until: number } | { state: 'failed'; reason: string };

/** Is the video rendered, still on its way (generation or render running), or never going to be? */
function readiness(engine: Engine, video: VideoRec, at: number): Readiness {
  if (video.status === 'failed') return { state: 'failed', reason: 'video generation failed' };
  if (video.status === 'processing') return { state: 'wait', until: video.endsAt };
  if (video.renderedPath !== null) return { state: 'ready' };
  const render = latestRender(engine, video.id);
  if (render?.status === 'in-progress') return { state: 'wait', until: render.endsAt };
  if (render?.status === 'error') return { state: 'failed', reason: 'render failed' };
  // "Renders the video first if needed" (spec §4): render now and come back when it is done.
  return { state: 'wait', until: startRender(engine, video, { codec: 'h264', at }).endsAt };
}

type Settled = { state: 'done'; status: 'posted' | 'failed'; reason?: string };
type Outcome = { state: 'wait'; until: number } | Settled;

function attemptScheduledPost(engine: Engine, entry: CalendarRec, at: number): void {
  if (entry.status !== 'scheduled') return; // cancelled meanwhile
  const outcome = tryPost(engine, entry, at);
  if (outcome.state === 'wait') {
    // The post goes out as soon as the video is ready (the +1 lets the finishing event run first).
    engine.scheduler.at(outcome.until + 1, 'post:attempt', (when) =>
      attemptScheduledPost(engine, entry, when),
    );
    return;
  }
  settle(engine, entry, outcome);
}

function tryPost(engine: Engine, entry: CalendarRec, at: number): Outcome {
  const video = engine.store.videos.get(entry.videoId);
  if (!video) return { state: 'done', status: 'failed', reason: 'video was deleted' };
  const ready = readiness(engine, video, at);
  if (ready.state === 'wait') return ready;
  if (ready.state === 'failed') return { state: 'done', status: 'failed', reason: ready.reason };
  const team = engine.store.team(entry.teamId);
  const account = accountFor(team, entry.platform, entry.authId);
  const rejected = engine.rng.failures.chance(engine.knobs.postFailureRate);
  if (!account) return { state: 'done', status: 'failed', reason: `no connected ${entry.platform} account` };
  if (rejected) return { state: 'done', status: 'failed', reason: `${entry.platform} rejected the upload` };
  const title = postTitle(video, entry.platform);
  recordPublished(engine, { team, video, platform: entry.platform, account, title, at });
  return { state: 'done', status: 'posted' };
}

function settle(engine: Engine, entry: CalendarRec, { status, reason }: Settled): void {
  entry.status = status;
  if (reason !== undefined) entry.reason = reason;
  if (entry.episodeId !== undefined) {
    const episode = engine.store.episodes.get(entry.episodeId);
    if (episode && episode.outcome === undefined) episode.outcome = status;
  }
  engine.logger.debug(
    { calendarId: entry.id, platform: entry.platform, status, reason },
    'scheduled post settled',
  );
}

/** Cancels every still-scheduled post of a video (and its series episode); returns how many there were. */
export function cancelScheduled(engine: Engine, videoId: string): number {
  let cancelled = 0;
  for (const entry of engine.store.calendar.values()) {
    if (entry.videoId !== videoId || entry.status !== 'scheduled') continue;
    entry.status = 'cancelled';
    cancelled += 1;
    const episode = entry.episodeId === undefined ? undefined : engine.store.episodes.get(entry.episodeId);
    if (episode && episode.outcome === undefined) episode.outcome = 'cancelled';
  }
  return cancelled;
}
