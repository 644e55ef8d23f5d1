/**
 * The tolerant reader's reports (DESIGN §6): drift and unusable fields reach the client's hooks and the
 * Prometheus metrics with the endpoint template and field path; an unusable field is logged once, with the
 * response's keys and never its values. Plus the normalisations of the older/newer shapes.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createVideoApiFactory, type DriftEvent, type InvalidResponseEvent } from '../../src/api/index.js';
import { readTolerantly, reqList } from '../../src/api/wire/common.js';
import { VideoListItemWire } from '../../src/api/wire/video.js';
import { createMetrics, videoApiHooks } from '../../src/observability/metrics.js';
import { ME, SERIES_CONFIG, STATUS, VARIANTS, VIDEO, VIDEO_LIST_ITEM } from './fixtures.js';
import { API_KEY, BASE_URL, harness, ok } from './harness.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

function hooks() {
  const drift: DriftEvent[] = [];
  const invalid: InvalidResponseEvent[] = [];
  return {
    drift,
    invalid,
    onDrift: (e: DriftEvent) => drift.push(e),
    onInvalid: (e: InvalidResponseEvent) => invalid.push(e),
  };
}

describe('drift: dropped or coerced, counted, the call goes on', () => {
  it('a field of another type in every variant is dropped and counted once per response with its count', async () => {
    const seen = hooks();
    const h = harness(seen);
    const variants = VARIANTS.map((v) => ({ ...v, score: { value: v.score } }));
    h.reply('GET', '/videos/vid_1', 200, ok({ ...VIDEO, thumbnails: { ...VIDEO.thumbnails, variants } }));
    const video = await h.clock.run(h.client.videos.get('vid_1'));
    expect(video.thumbnails?.variants.map((v) => v.score)).toEqual([undefined, undefined, undefined]);
    expect(video.thumbnails?.variants.map((v) => v.id)).toEqual(['v1', 'v2', 'v3']);
    expect(seen.drift).toEqual([
      { endpoint: 'GET /videos/:id', field: 'data.thumbnails.variants[].score', count: 3 },
    ]);
    expect(seen.invalid).toEqual([]);
  });

  it('unambiguous coercions: numeric strings, "true", numeric ids', async () => {
    const seen = hooks();
    const h = harness(seen);
    h.reply('GET', '/videos/vid_1/status', 200, ok({ ...STATUS, id: 42, percentCompleted: '60' }));
    h.reply('GET', '/me', 200, ok({ ...ME, auth: { ...ME.auth, legacy: 'true' } }));
    expect(await h.clock.run(h.client.videos.status('vid_1'))).toMatchObject({
      id: '42',
      percentCompleted: 60,
    });
    expect((await h.clock.run(h.client.me.get())).auth.legacy).toBe(true);
    expect(seen.drift.map((e) => [e.endpoint, e.field])).toEqual([
      ['GET /videos/:id/status', 'data.id'],
      ['GET /videos/:id/status', 'data.percentCompleted'],
      ['GET /me', 'data.auth.legacy'],
    ]);
  });

  it('text where text is meant is never made from a number: dropped', async () => {
    const seen = hooks();
    const h = harness(seen);
    h.reply('GET', '/me', 200, ok({ ...ME, plan: 3 }));
    const me = await h.clock.run(h.client.me.get());
    expect(me).not.toHaveProperty('plan');
    expect(seen.drift).toEqual([{ endpoint: 'GET /me', field: 'data.plan', count: 1 }]);
  });

  it('a list item without an id is dropped from the page and counted', async () => {
    const seen = hooks();
    const h = harness(seen);
    const { id, ...noId } = VIDEO_LIST_ITEM;
    h.reply(
      'GET',
      '/videos',
      200,
      ok([VIDEO_LIST_ITEM, noId, { ...VIDEO_LIST_ITEM, id: 'vid_3' }], { page: 1, limit: 20, total: 3 }),
    );
    const page = await h.clock.run(h.client.videos.list());
    expect(page.items.map((v) => v.id)).toEqual(['vid_1', 'vid_3']);
    expect(seen.drift).toEqual([{ endpoint: 'GET /videos', field: 'data[].id', count: 1 }]);
  });

  it('open values (a status, a platform, an error type) are carried as they come, no drift', async () => {
    const seen = hooks();
    const h = harness(seen);
    h.reply('GET', '/videos/vid_1/status', 200, ok({ ...STATUS, status: 'queued_for_gpu' }));
    h.reply('GET', '/renders/r_1', 200, ok({ renderId: 'r_1', status: 'transcoding' }));
    expect((await h.clock.run(h.client.videos.status('vid_1'))).status).toBe('queued_for_gpu');
    expect((await h.clock.run(h.client.renders.get('r_1'))).status).toBe('transcoding');
    expect(seen.drift).toEqual([]);
  });

  it('a list of 100 videos without drift is read in one pass', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      ...VIDEO_LIST_ITEM,
      id: `vid_${i}`,
      u_extra: { i },
    }));
    const started = performance.now();
    const read = readTolerantly(reqList(VideoListItemWire), items);
    const elapsed = performance.now() - started;
    expect(read.ok && read.data.length).toBe(100);
    expect(read.ok && read.drift.size).toBe(0);
    // Generous: a few milliseconds on a busy machine; a strict second pass would only run on drift.
    expect(elapsed).toBeLessThan(250);
  });
});

describe('older and newer shapes of a series, normalised', () => {
  it('postingDays as numbers, destinationAccounts per platform, duration as a string', async () => {
    const seen = hooks();
    const h = harness(seen);
    h.reply(
      'GET',
      '/series/ser_1',
      200,
      ok({
        ...SERIES_CONFIG,
        postingDays: [1, 3, '5'],
        destinationAccounts: { youtube: ['acc_yt_1'], tiktok: ['acc_tt_1'] },
        duration: '60',
        platformPostTimes: { youtube: '09:30' },
      }),
    );
    const series = await h.clock.run(h.client.series.get('ser_1'));
    expect(series).toMatchObject({
      postingDays: ['monday', 'wednesday', 'friday'],
      destinationAccounts: ['acc_yt_1', 'acc_tt_1'],
      duration: 60,
    });
    expect(seen.drift).toEqual([{ endpoint: 'GET /series/:id', field: 'data.duration', count: 1 }]);
  });

  it('the older weekday names (and three-letter forms) read the same', async () => {
    const h = harness();
    h.reply('GET', '/series/ser_1', 200, ok({ ...SERIES_CONFIG, postingDays: ['Monday', 'wed', 'funday'] }));
    expect((await h.clock.run(h.client.series.get('ser_1'))).postingDays).toEqual(['monday', 'wednesday']);
  });
});

describe('invalid_response: reported, logged once with keys, never values', () => {
  it('onInvalid names endpoint and field; the warning carries top-level and data keys only', async () => {
    const seen = hooks();
    const { logger, lines } = capture();
    const h = harness({ ...seen, logger, maxAttempts: 1 });
    const secret = 'value-that-must-not-be-logged';
    const body = ok({ name: secret, status: 'pending', creditsUsed: 20 });
    h.reply('POST', '/videos', 201, { ...body, requestNote: secret }, { times: 2 });
    const call = () =>
      h.clock
        .run(
          h.client.videos.create({ script: 'A long enough script.', voiceId: 'v' }, { idempotencyKey: 'k' }),
        )
        .catch((e: unknown) => e);
    const first = await call();
    await call();
    expect(first).toMatchObject({ type: 'invalid_response' });
    expect((first as Error).message).toBe(
      'POST /videos: the response has no usable data.id, which this operation needs',
    );
    expect(seen.invalid).toEqual([
      { endpoint: 'POST /videos', field: 'data.id' },
      { endpoint: 'POST /videos', field: 'data.id' },
    ]);
    const warnings = lines.filter((l) => l.msg?.toString().startsWith('video api response unusable'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      endpoint: 'POST /videos',
      field: 'data.id',
      keys: ['success', 'data', 'requestNote'],
      dataKeys: ['name', 'status', 'creditsUsed'],
    });
    const log = JSON.stringify(lines);
    expect(log).not.toContain(secret);
    expect(log).not.toContain(API_KEY);
  });

  it('clients of one factory share the once-per-field memory', async () => {
    const { logger, lines } = capture();
    const first = harness();
    const factory = createVideoApiFactory({
      baseUrl: BASE_URL,
      logger,
      dispatcher: first.agent,
      clock: first.clock,
      maxAttempts: 1,
    });
    first.reply('GET', '/me', 200, ok({ plan: 'pro' }), { times: 2 });
    for (const key of ['sk_live_first_key_000000000', 'sk_live_second_key_11111111']) {
      await first.clock.run(factory(key).me.get()).catch(() => undefined);
    }
    expect(lines.filter((l) => l.msg?.toString().startsWith('video api response unusable'))).toHaveLength(1);
  });
});

describe('metrics', () => {
  it('the hooks feed reelbot_api_response_drift_total and reelbot_api_invalid_responses_total', async () => {
    const metrics = createMetrics({ defaults: false });
    const h = harness({ ...videoApiHooks(metrics), maxAttempts: 1 });
    const variants = VARIANTS.map((v) => ({ ...v, score: 'high' }));
    h.reply('GET', '/videos/vid_1', 200, ok({ ...VIDEO, thumbnails: { ...VIDEO.thumbnails, variants } }));
    h.reply('GET', '/videos/vid_1/status', 200, ok({ id: 'vid_1', percentCompleted: 10 }));
    await h.clock.run(h.client.videos.get('vid_1'));
    await h.clock.run(h.client.videos.status('vid_1')).catch(() => undefined);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'reelbot_api_response_drift_total{endpoint="GET /videos/:id",field="data.thumbnails.variants[].score"} 3',
    );
    expect(text).toContain(
      'reelbot_api_invalid_responses_total{endpoint="GET /videos/:id/status",field="data.status"} 1',
    );
    expect(text).toContain('reelbot_api_calls_total{method="GET",route="/videos/:id",status="200"} 1');
  });
});
