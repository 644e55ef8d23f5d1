import type { Engine } from '../engine.js';
import type { TeamRec, VideoRec } from '../records.js';
import { type Model, SECOND } from '../vocabulary.js';
import { startRender } from './renders.js';
import { startThumbnails } from './thumbnails.js';

/** Nominal generation times at speed 1. */
const GENERATION_MS: Record<Model, number> = {
  storyboard: 90 * SECOND,
  motion_lite: 150 * SECOND,
  motion_pro: 240 * SECOND,
};
const CAPTIONS_MS = 60 * SECOND;

const STEPS = ['script', 'voiceover', 'visuals', 'captions', 'assembly'] as const;

const FAILURE_REASONS = [
  'Scene 3 visuals could not be generated: the image model timed out.',
  'Voiceover synthesis failed for the selected voice.',
  'The script was flagged by content moderation.',
  'Caption alignment failed: no speech detected in the audio track.',
];

export interface NewVideo {
  kind: VideoRec['kind'];
  name: string;
  platform: string;
  model: Model;
  script: string;
  voiceId: string;
  options: VideoRec['options'];
  generateThumbnails: boolean;
  seriesId?: string;
  /** when it is created; generation starts at once */
  at: number;
}

/** Stores a video in `processing` and queues its completion (or failure) on the timeline. */
export function createVideo(engine: Engine, team: TeamRec, spec: NewVideo): VideoRec {
  const { at } = spec;
  const durationMs = engine.scaled(spec.kind === 'captions' ? CAPTIONS_MS : GENERATION_MS[spec.model]);
  const willFail = engine.rng.failures.chance(engine.knobs.generationFailureRate);
  // A failing job stops part-way, with percentCompleted frozen where it broke.
  const failPercent = willFail ? engine.rng.content.int(15, 85) : undefined;
  const video: VideoRec = {
    id: engine.newId(at),
    teamId: team.id,
    seq: engine.store.nextSeq(),
    kind: spec.kind,
    name: spec.name,
    platform: spec.platform,
    model: spec.model,
    script: spec.script,
    voiceId: spec.voiceId,
    options: spec.options,
    createdAt: at,
    status: 'processing',
    startedAt: at,
    durationMs,
    endsAt: at + (failPercent === undefined ? durationMs : Math.round((durationMs * failPercent) / 100)),
    errorMessages: [],
    renderedPath: null,
    thumbnails: { status: 'idle', generation: 0, aspect: '9:16', variants: [] },
    generateThumbnails: spec.generateThumbnails,
    posts: {},
    archived: false,
    noiseSeed: engine.rng.noise.int(0, 0x7fffffff),
    ...(failPercent === undefined ? {} : { failedAtPercent: failPercent }),
    ...(spec.seriesId === undefined ? {} : { seriesId: spec.seriesId }),
  };
  engine.store.videos.set(video.id, video);
  queueGenerationFinish(engine, video);
  return video;
}

/** Queues the end of a processing video's generation (at creation, or when a saved state is loaded). */
export function queueGenerationFinish(engine: Engine, video: VideoRec): void {
  engine.scheduler.at(video.endsAt, 'generation:finish', (when) => finishGeneration(engine, video, when));
}

function finishGeneration(engine: Engine, video: VideoRec, at: number): void {
  if (engine.store.videos.get(video.id) !== video) return; // deleted meanwhile
  if (video.failedAtPercent !== undefined) {
    video.status = 'failed';
    video.errorMessages = [
      engine.rng.content.pick(FAILURE_REASONS),
      'Credits are not refunded automatically.',
    ];
    return;
  }
  video.status = 'completed';
  if (video.generateThumbnails) startThumbnails(engine, video, at);
  // Series episodes post themselves, so they are rendered as soon as they exist.
  if (video.seriesId !== undefined) startRender(engine, video, { codec: 'h264', at });
}

export function percentCompleted(video: VideoRec, now: number): number {
  if (video.status === 'completed') return 100;
  if (video.status === 'failed') return video.failedAtPercent ?? 0;
  return Math.min(99, Math.max(0, Math.floor(((now - video.startedAt) / video.durationMs) * 100)));
}

/** Per-step progress reported beside the status (its shape is left open by the spec). */
export function generationEvents(video: VideoRec, now: number): { step: string; status: string }[] {
  const percent = percentCompleted(video, now);
  const share = 100 / STEPS.length;
  return STEPS.map((step, i) => {
    const start = i * share;
    let status = 'pending';
    if (video.status === 'completed' || percent >= start + share) status = 'done';
    else if (percent >= start) status = video.status === 'failed' ? 'failed' : 'running';
    return { step, status };
  });
}

/** Default video name: the start of the script, cut at a word boundary. */
export function nameFromScript(script: string): string {
  const flat = script.replace(/\s+/g, ' ').trim();
  if (flat.length <= 60) return flat;
  const cut = flat.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
