/**
 * A team's past posts, seeded for tests and demos: each one a finished, rendered video that went out on one
 * platform at a given time and has gathered a given number of views. They then read through the contract's
 * own shapes — GET /videos (the video), GET /calendar (a `posted` entry at that time) and GET /analytics
 * (the post, its views and postUrl among `topPosts`) — exactly as posts the simulator published itself.
 */
import type { Engine } from '../engine.js';
import type { CalendarRec, RenderRec, TeamRec, VideoRec } from '../records.js';
import { HOUR, MINUTE, type Platform, POST_BLOCK_KEYS } from '../vocabulary.js';
import { accountFor, recordPublished } from './posting.js';
import { renderMediaPath } from './renders.js';

/** One past post: where, when (epoch ms), its views now, and its title (also the video's name). */
export interface PastPost {
  platform: Platform;
  at: number;
  views: number;
  title: string;
}

/** The field that carries a post's title in each platform's metadata block (spec §2). */
const TITLE_FIELD: Record<Platform, string> = {
  youtube: 'title',
  tiktok: 'title',
  instagram: 'caption',
  x: 'text',
  facebook: 'description',
  linkedin: 'description',
  threads: 'text',
};

/** Records `post` as a video made, rendered and posted before `post.at`; returns the video id. */
export function seedPastPost(engine: Engine, team: TeamRec, post: PastPost): string {
  const account = accountFor(team, post.platform);
  if (!account) throw new Error(`no ${post.platform} account is connected for team ${team.name}`);
  const made = post.at - 2 * HOUR;
  const video = pastVideo(engine, team, { ...post, made });
  const render: RenderRec = {
    id: engine.newId(made),
    teamId: team.id,
    videoId: video.id,
    codec: 'h264',
    createdAt: made,
    durationMs: MINUTE,
    endsAt: made + MINUTE,
    status: 'done',
  };
  engine.store.renders.set(render.id, render);
  video.renderedPath = renderMediaPath(render);
  const entry: CalendarRec = {
    id: engine.newId(made),
    teamId: team.id,
    seq: engine.store.nextSeq(),
    taskId: engine.newId(made),
    videoId: video.id,
    platform: post.platform,
    scheduledAt: post.at,
    status: 'posted',
    authId: account.authId,
  };
  engine.store.calendar.set(entry.id, entry);
  const published = recordPublished(engine, {
    team,
    video,
    platform: post.platform,
    account,
    title: post.title,
    at: post.at,
  });
  // Its views are settled: the curve reaches `views` within a millisecond of posting.
  published.peakViews = post.views;
  published.tauMs = 0.01;
  return video.id;
}

function pastVideo(engine: Engine, team: TeamRec, post: PastPost & { made: number }): VideoRec {
  const { made } = post;
  const video: VideoRec = {
    id: engine.newId(made),
    teamId: team.id,
    seq: engine.store.nextSeq(),
    kind: 'script',
    name: post.title.slice(0, 120),
    platform: 'youtube',
    model: 'storyboard',
    script: `A past video of the team: ${post.title}.`,
    voiceId: team.customVoiceId,
    options: {},
    createdAt: made,
    status: 'completed',
    startedAt: made,
    durationMs: MINUTE,
    endsAt: made + MINUTE,
    errorMessages: [],
    renderedPath: null,
    thumbnails: { status: 'idle', generation: 0, aspect: '9:16', variants: [] },
    generateThumbnails: false,
    posts: { [POST_BLOCK_KEYS[post.platform]]: { [TITLE_FIELD[post.platform]]: post.title } },
    archived: false,
    noiseSeed: 0,
  };
  engine.store.videos.set(video.id, video);
  return video;
}
