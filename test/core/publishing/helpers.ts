/**
 * Shared set-up for the publishing end-to-end tests: completed (and optionally rendered) videos made
 * through the real client against the simulator, and a spy counting the calls that change something.
 */
import type { Response } from '../../../src/core/text/cards.js';
import type { VideoApi } from '../../../src/core/video-api/video-api.js';
import { spyOnHarness } from '../../support/api-spy.js';
import { DEMO_KEY, type Harness } from '../../support/harness.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export function apiOf(h: Harness, key = DEMO_KEY): VideoApi {
  return h.deps.apiFor(key);
}

let made = 0;

/** A video that finished generating (status `completed`), named `name`. */
export async function completedVideo(
  h: Harness,
  name: string,
  options: { key?: string; render?: boolean } = {},
): Promise<string> {
  const api = apiOf(h, options.key);
  const voices = await api.voices.list();
  const created = await api.videos.create(
    {
      script: `A short script about ${name} that is long enough.`,
      voiceId: (voices[0] as { id: string }).id,
      name,
    },
    { idempotencyKey: `test-create-${++made}-${name}` },
  );
  for (let i = 0; i < 120; i++) {
    const status = await api.videos.status(created.id);
    if (status.status === 'completed') break;
    if (status.status === 'failed') throw new Error('generation failed in a test set-up');
    h.clock.advance(15_000);
  }
  if (options.render) {
    const started = await api.videos.render(created.id, {}, { idempotencyKey: `test-render-${created.id}` });
    for (let i = 0; i < 120; i++) {
      const r = await api.renders.get(started.renderId);
      if (r.status === 'done') break;
      if (r.status === 'error') throw new Error('render failed in a test set-up');
      h.clock.advance(5_000);
    }
  }
  return created.id;
}

export interface CallLog {
  /** `resource.method` of every call that writes (PATCH, POST, DELETE), in order. */
  writes: string[];
  /** Every call. */
  all: string[];
}

const WRITES = new Set([
  'videos.update',
  'videos.create',
  'videos.render',
  'videos.delete',
  'videos.selectThumbnail',
  'posts.publish',
  'posts.schedule',
  'posts.cancel',
]);

/** Wraps the bot's client factory so the test sees which calls a command made. */
export function spyCalls(h: Harness): CallLog {
  const log: CallLog = { writes: [], all: [] };
  spyOnHarness(h, {
    before: ({ name }) => {
      log.all.push(name);
      if (WRITES.has(name)) log.writes.push(name);
    },
  });
  return log;
}

export function formOf(r: Response) {
  if (r.kind !== 'form')
    throw new Error(`expected a form, got ${r.kind}: ${JSON.stringify(r).slice(0, 400)}`);
  return r.form;
}

export function cardOf(r: Response) {
  if (r.kind !== 'message' && r.kind !== 'update') {
    throw new Error(`expected a message, got ${r.kind}: ${JSON.stringify(r).slice(0, 400)}`);
  }
  return r.card;
}
