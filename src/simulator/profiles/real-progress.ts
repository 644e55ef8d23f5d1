/**
 * Generation as the real service reports it: progress that stalls and jumps (a step function of elapsed
 * time, one curve per model with a random stall), harmless warnings in `errorMessages` while it is still
 * processing, and per-step events of an odd shape. The timing of the job itself (when it completes or
 * fails) is the common one, so completion happens at the model's nominal time in both profiles.
 */
import { Prng } from '../random.js';
import type { VideoRec } from '../records.js';

/** Breakpoints: from this fraction of the job's duration on, percentCompleted is this value. */
type Curve = readonly (readonly [fraction: number, percent: number])[];

/**
 * One curve per model (and captions), each with a long plateau that ends at the random `stall` fraction
 * with a jump of 28 points or more; `lift` (0–4) varies the height of the landing a little.
 */
const CURVES: Record<
  VideoRec['model'] | 'captions',
  { stall: [number, number]; curve: (stall: number, lift: number) => Curve }
> = {
  storyboard: {
    stall: [0.35, 0.6],
    curve: (s, lift) => [
      [0.04, 10],
      [s, 58 + lift],
      [0.8, 85],
      [0.93, 96],
    ],
  },
  motion_lite: {
    stall: [0.3, 0.55],
    curve: (s, lift) => [
      [0.03, 5],
      [0.09, 14],
      [s, 44 + lift],
      [0.72, 73],
      [0.9, 91],
    ],
  },
  motion_pro: {
    stall: [0.25, 0.5],
    curve: (s, lift) => [
      [0.03, 3],
      [0.07, 10],
      [s, 38 + lift],
      [0.62, 64],
      [0.84, 88],
      [0.95, 97],
    ],
  },
  captions: {
    stall: [0.35, 0.65],
    curve: (s, lift) => [
      [0.08, 20],
      [s, 66 + lift],
      [0.9, 95],
    ],
  },
};

export const PROCESSING_WARNINGS = [
  'b-roll fetch timed out, retried',
  'voiceover chunk 2 re-synthesized after a timeout',
  'scene 4 image regenerated (safety filter)',
] as const;

const STEPS = ['script', 'voiceover', 'visuals', 'captions', 'assembly'] as const;

interface Traits {
  curve: Curve;
  /** a warning that appears once this fraction of the job has elapsed */
  warning?: { fraction: number; message: string };
  /** how readyForEditing is typed for this video */
  booleans: 'string' | 'number';
}

/** Everything random about one video, drawn in a fixed order from its own seed (so every read agrees). */
function traits(video: VideoRec): Traits {
  const rng = new Prng(video.noiseSeed);
  const shape = CURVES[video.kind === 'captions' ? 'captions' : video.model];
  const stall = shape.stall[0] + rng.next() * (shape.stall[1] - shape.stall[0]);
  const lift = rng.int(0, 4);
  const warned = rng.chance(0.5);
  const warnAt = 0.1 + rng.next() * 0.35;
  const message = rng.pick(PROCESSING_WARNINGS);
  const booleans = rng.chance(0.5) ? 'string' : 'number';
  return {
    curve: shape.curve(stall, lift),
    ...(warned ? { warning: { fraction: warnAt, message } } : {}),
    booleans,
  };
}

/** Fraction of the job elapsed at `at`, as far as the job got (a failed job stops at its failure point). */
function elapsed(video: VideoRec, at: number): number {
  const until = video.status === 'processing' ? at : video.endsAt;
  return Math.max(0, (Math.min(until, video.endsAt) - video.startedAt) / video.durationMs);
}

function curvePercent(curve: Curve, fraction: number): number {
  let percent = 0;
  for (const [from, value] of curve) if (fraction >= from) percent = value;
  return percent;
}

/** percentCompleted: plateaus and jumps; 100 only once completed, frozen where it was for a failure. */
export function realPercent(video: VideoRec, now: number): number {
  if (video.status === 'completed') return 100;
  return Math.min(99, curvePercent(traits(video).curve, elapsed(video, now)));
}

/** `errorMessages`: the video's warning (not a failure) once it happened, then any failure reasons. */
export function realMessages(video: VideoRec, now: number): string[] {
  const { warning } = traits(video);
  const warned = warning !== undefined && elapsed(video, now) >= warning.fraction;
  return [...(warned ? [warning.message] : []), ...video.errorMessages];
}

/** readyForEditing as "true"/"false" or 1/0, depending on the video. */
export function realReadyForEditing(video: VideoRec): string | number {
  const ready = video.status === 'completed';
  return traits(video).booleans === 'string' ? String(ready) : ready ? 1 : 0;
}

/**
 * Per-step events in an odd shape: an array mixing objects (finished steps, with epoch seconds) and a
 * plain string for the running step.
 */
export function realEvents(video: VideoRec, now: number): unknown[] {
  const percent = realPercent(video, now);
  const share = 100 / STEPS.length;
  const events: unknown[] = [];
  STEPS.forEach((step, i) => {
    const end = (i + 1) * share;
    if (video.status === 'completed' || percent >= end) {
      const at = video.startedAt + Math.round((video.durationMs * Math.min(end, 99)) / 100);
      events.push({ event: `${step}.done`, ts: Math.floor(Math.min(at, now) / 1000) });
    } else if (percent >= i * share) {
      events.push(video.status === 'failed' ? `${step}: failed` : `${step}: ${Math.round(percent)}%`);
    }
  });
  return events;
}

/** The step running now, as the real service names it beside the status (unknown to the spec). */
export function realStage(video: VideoRec, now: number): string {
  if (video.status !== 'processing') return video.status === 'completed' ? 'done' : 'error';
  const index = Math.min(STEPS.length - 1, Math.floor(realPercent(video, now) / (100 / STEPS.length)));
  return STEPS[index]!;
}
