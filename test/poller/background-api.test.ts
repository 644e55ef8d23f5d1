import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVideoApiClient } from '../../src/api/index.js';
import type { CallOptions, VideoApi } from '../../src/core/video-api/video-api.js';
import { backgroundApi } from '../../src/poller/background-api.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.js';

/** Records every call's arguments; answers nothing useful. */
function recordingApi(): { api: VideoApi; calls: [string, unknown[]][] } {
  const calls: [string, unknown[]][] = [];
  const group = (name: string, methods: string[]) =>
    Object.fromEntries(
      methods.map((method) => [
        method,
        (...args: unknown[]) => {
          calls.push([`${name}.${method}`, args]);
          return Promise.resolve();
        },
      ]),
    );
  const api = {
    me: group('me', ['get']),
    credits: group('credits', ['get']),
    videos: group('videos', ['create', 'get', 'status', 'update']),
    renders: group('renders', ['get']),
    series: group('series', ['episodes', 'list']),
  } as unknown as VideoApi;
  return { api, calls };
}

describe('backgroundApi', () => {
  it('adds priority background at each method’s options position, keeping the other options', async () => {
    const { api, calls } = recordingApi();
    const bg = backgroundApi(api);
    const signal = new AbortController().signal;
    await bg.me.get();
    await bg.credits.get();
    await bg.videos.get('v1', { signal });
    await bg.videos.status('v1', { priority: 'interactive' });
    await bg.videos.update('v1', { name: 'n' });
    await bg.videos.create({ script: 's', voiceId: 'x' }, { idempotencyKey: 'k1' });
    await bg.series.episodes('s1');
    await bg.series.list();
    const background: CallOptions = { priority: 'background' };
    expect(calls).toEqual([
      ['me.get', [background]],
      ['credits.get', [undefined, background]],
      ['videos.get', ['v1', { signal, priority: 'background' }]],
      ['videos.status', ['v1', background]],
      ['videos.update', ['v1', { name: 'n' }, background]],
      [
        'videos.create',
        [
          { script: 's', voiceId: 'x' },
          { idempotencyKey: 'k1', priority: 'background' },
        ],
      ],
      ['series.episodes', ['s1', undefined, background]],
      ['series.list', [background]],
    ]);
  });

  it('also aborts every call on the given signal, merged with the caller’s own', async () => {
    const { api, calls } = recordingApi();
    const stopping = new AbortController();
    const own = new AbortController();
    const bg = backgroundApi(api, stopping.signal);
    await bg.me.get();
    await bg.videos.get('v1', { signal: own.signal });
    const [first, second] = calls.map(([, args]) => args.at(-1) as CallOptions);
    expect(first?.signal).toBe(stopping.signal);
    expect(second?.signal?.aborted).toBe(false);
    own.abort();
    expect(second?.signal?.aborted).toBe(true);
    expect(first?.signal?.aborted).toBe(false);
    stopping.abort();
    expect(first?.signal?.aborted).toBe(true);
  });

  describe('over the real client and simulator', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await startSimulator();
    });
    afterAll(async () => {
      await sim.close();
    });

    it("draws on the key's background lane", async () => {
      const client = createVideoApiClient({ baseUrl: sim.url, apiKey: sim.keys[0]! });
      const bg = backgroundApi(client);
      const me = await bg.me.get();
      await bg.videos.list();
      expect(me.team.id).toBeTruthy();
      const usage = client.budget.usage();
      expect(usage.background.used).toBe(2);
      expect(usage.key.used).toBe(2);
      await client.me.get();
      expect(client.budget.usage().background.used).toBe(2); // interactive calls stay off the lane
    });
  });
});
