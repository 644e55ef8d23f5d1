import type { Engine } from '../engine.js';
import type { VariantRec, VideoRec } from '../records.js';
import { SECOND } from '../vocabulary.js';

/** Nominal delays (speed 1) after generation completes. */
const QUEUED_TO_GENERATING_MS = 3 * SECOND;
const GENERATING_TO_DONE_MS = 12 * SECOND;
const VARIANTS_PER_RUN = 3;

/** Queues a thumbnail run: queued → generating → ready | partial | failed. Also used for regeneration. */
export function startThumbnails(engine: Engine, video: VideoRec, at: number): void {
  const thumbs = video.thumbnails;
  thumbs.status = 'queued';
  const run = thumbs.generation + 1;
  const generatingAt = at + engine.scaled(QUEUED_TO_GENERATING_MS);
  const doneAt =
    generatingAt + engine.scaled(engine.profile.thumbnailGeneratingMs(engine, GENERATING_TO_DONE_MS));
  // A run superseded by a newer one (or a deleted video) does nothing when its events come due.
  const stillCurrent = () => engine.store.videos.get(video.id) === video && thumbs.generation + 1 === run;
  engine.scheduler.at(generatingAt, 'thumbnails:generating', () => {
    if (stillCurrent()) thumbs.status = 'generating';
  });
  engine.scheduler.at(doneAt, 'thumbnails:done', () => {
    if (stillCurrent()) finishRun(engine, video);
  });
}

function finishRun(engine: Engine, video: VideoRec): void {
  const thumbs = video.thumbnails;
  thumbs.generation += 1;
  const hooks = hookTexts(video);
  const survivors: VariantRec[] = [];
  for (let i = 0; i < VARIANTS_PER_RUN; i += 1) {
    // Draw for every variant whatever the outcome so the failure stream advances the same way each run.
    const failed = engine.rng.failures.chance(engine.knobs.thumbnailFailureRate);
    const score = engine.rng.content.int(55, 98);
    if (failed) continue;
    survivors.push({
      id: engine.newId(),
      n: (thumbs.generation - 1) * VARIANTS_PER_RUN + i,
      hookText: hooks[i % hooks.length]!,
      source: 'ai',
      score,
      grade: gradeOf(score),
    });
  }
  thumbs.status =
    survivors.length === VARIANTS_PER_RUN ? 'ready' : survivors.length === 0 ? 'failed' : 'partial';

  // A user's pick survives regeneration (spec §2/§3): keep that variant and select it still.
  const picked =
    thumbs.selectedBy === 'user' ? thumbs.variants.find((v) => v.id === thumbs.selectedVariantId) : undefined;
  if (picked) {
    thumbs.variants = [picked, ...survivors.slice(0, VARIANTS_PER_RUN - 1)];
    return;
  }
  thumbs.variants = survivors;
  const best = [...survivors].sort((a, b) => b.score - a.score)[0];
  if (best) {
    thumbs.selectedVariantId = best.id;
    thumbs.selectedBy = 'ai';
  } else {
    delete thumbs.selectedVariantId;
    delete thumbs.selectedBy;
  }
}

function gradeOf(score: number): string {
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  return 'D';
}

/** Three short overlay texts drawn from the script, as an AI thumbnail tool would propose. */
function hookTexts(video: VideoRec): string[] {
  const words = (video.script || video.name).replace(/\s+/g, ' ').trim().split(' ');
  const opening = words
    .slice(0, 5)
    .join(' ')
    .replace(/[.,;:!?]+$/, '');
  const topic = video.name.length > 32 ? `${video.name.slice(0, 30).trimEnd()}…` : video.name;
  return [opening ? `${opening}…` : topic, `The truth about ${topic}`, 'Nobody talks about this'];
}
