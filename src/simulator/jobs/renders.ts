import type { Engine } from '../engine.js';
import type { RenderRec, VideoRec } from '../records.js';
import { SECOND } from '../vocabulary.js';

/** Nominal render time at speed 1 (spec: "renders typically take under two minutes"). */
const RENDER_MS = 45 * SECOND;

/** Starts rendering `video` with `codec` at `at`; when it is done the video has a rendered file. */
export function startRender(
  engine: Engine,
  video: VideoRec,
  { codec, at }: { codec: string; at: number },
): RenderRec {
  const durationMs = engine.scaled(RENDER_MS);
  const willFail = engine.rng.failures.chance(engine.knobs.renderFailureRate);
  const failFraction = willFail ? engine.rng.content.int(20, 90) / 100 : 1;
  const render: RenderRec = {
    id: engine.newId(at),
    teamId: video.teamId,
    videoId: video.id,
    codec,
    createdAt: at,
    durationMs,
    endsAt: at + Math.max(1, Math.round(durationMs * failFraction)),
    status: 'in-progress',
    ...(willFail ? { failedAtProgress: failFraction } : {}),
  };
  engine.store.renders.set(render.id, render);
  queueRenderFinish(engine, render);
  return render;
}

/** Queues the end of a render in progress (when started, or when a saved state is loaded). */
export function queueRenderFinish(engine: Engine, render: RenderRec): void {
  engine.scheduler.at(render.endsAt, 'render:finish', () => {
    if (render.failedAtProgress !== undefined) {
      render.status = 'error';
      return;
    }
    render.status = 'done';
    const video = engine.store.videos.get(render.videoId);
    if (video) video.renderedPath = renderMediaPath(render);
  });
}

export function renderMediaPath(render: RenderRec): string {
  return `/media/render/${render.id}.mp4`;
}

/** 0..1, two decimals; never 1 before the render is done. */
export function renderProgress(render: RenderRec, now: number): number {
  if (render.status === 'done') return 1;
  if (render.status === 'error') return render.failedAtProgress ?? 0;
  const fraction = (now - render.createdAt) / render.durationMs;
  return Math.min(0.99, Math.max(0, Math.floor(fraction * 100) / 100));
}

/** The newest render of a video, if any. */
export function latestRender(engine: Engine, videoId: string): RenderRec | undefined {
  let latest: RenderRec | undefined;
  for (const render of engine.store.renders.values()) {
    if (render.videoId === videoId && (!latest || render.createdAt >= latest.createdAt)) latest = render;
  }
  return latest;
}
