import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVideo, type Harness, SCRIPT, startHarness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

async function expectInvalid(method: string, path: string, body: unknown, ...fields: string[]) {
  const res = await h.api(method, path, { body });
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expect(res.json.success).toBe(false);
  expect(res.json.error.type).toBe('invalid_input');
  for (const field of fields) expect(res.json.error.message).toContain(field);
  return res.json.error.message;
}

const video = (extra: Record<string, unknown> = {}) => ({
  script: SCRIPT,
  voiceId: 'voice_aria_en',
  ...extra,
});

describe('bodies are strict and messages name the field', () => {
  it('rejects an unknown top-level field', async () => {
    const message = await expectInvalid('POST', '/videos', video({ colour: 'red' }), 'colour');
    expect(message).toMatch(/unknown field/);
  });

  it('names a missing required field and a wrongly typed one', async () => {
    await expectInvalid('POST', '/videos', { script: SCRIPT }, 'voiceId');
    await expectInvalid('POST', '/videos', video({ enableBackgroundMusic: 'yes' }), 'enableBackgroundMusic');
  });

  it('rejects malformed JSON and non-object bodies', async () => {
    const bad = await h.api('POST', '/videos', { raw: '{"script": ' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('body');
    await expectInvalid('POST', '/videos', [1, 2], 'body');
  });

  it('rejects unknown query parameters by name', async () => {
    const res = await h.api('GET', '/videos?pageSize=5');
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('pageSize');
  });

  it('nothing is created or charged by an invalid request', async () => {
    await expectInvalid('POST', '/videos', video({ model: 'ultra' }), 'model');
    expect(h.run.sim.balance('Team A')).toBe(500);
    expect((await h.api<unknown[]>('GET', '/videos')).json.data).toHaveLength(0);
  });
});

describe('limits of POST /videos', () => {
  it('script is 10 to 10000 characters', async () => {
    await expectInvalid('POST', '/videos', video({ script: 'x'.repeat(9) }), 'script', '10');
    await expectInvalid('POST', '/videos', video({ script: 'x'.repeat(10001) }), 'script', '10000');
    expect((await h.api('POST', '/videos', { body: video({ script: 'x'.repeat(10) }) })).status).toBe(201);
    expect((await h.api('POST', '/videos', { body: video({ script: 'x'.repeat(10000) }) })).status).toBe(201);
  });

  it('name is at most 120 characters and defaults to the start of the script', async () => {
    await expectInvalid('POST', '/videos', video({ name: 'n'.repeat(121) }), 'name', '120');
    const ok = await h.api<{ name: string }>('POST', '/videos', { body: video({ name: 'n'.repeat(120) }) });
    expect(ok.json.data.name).toHaveLength(120);
    const unnamed = await h.api<{ name: string }>('POST', '/videos', { body: video() });
    expect(SCRIPT.startsWith(unnamed.json.data.name.replace('…', ''))).toBe(true);
  });

  it('model is one of the three models; voice, style and language come from the catalogs', async () => {
    const message = await expectInvalid('POST', '/videos', video({ model: 'ultra' }), 'model');
    expect(message).toContain('storyboard');
    await expectInvalid('POST', '/videos', video({ voiceId: 'voice_nobody' }), 'voiceId');
    await expectInvalid('POST', '/videos', video({ style: 'cubism' }), 'style');
    await expectInvalid('POST', '/videos', video({ language: 'xx' }), 'language');
    const ok = await h.api('POST', '/videos', {
      body: video({ style: 'anime', language: 'es', voiceId: 'voice_lucia_es', model: 'motion_pro' }),
    });
    expect(ok.status).toBe(201);
  });
});

describe('POST /videos/captions', () => {
  it('needs videoUrl or audioUrl, each a public http(s) URL', async () => {
    await expectInvalid('POST', '/videos/captions', {}, 'videoUrl');
    await expectInvalid('POST', '/videos/captions', { videoUrl: 'not a url' }, 'videoUrl');
    await expectInvalid('POST', '/videos/captions', { audioUrl: 'ftp://host/a.mp3' }, 'audioUrl');
    await expectInvalid(
      'POST',
      '/videos/captions',
      { videoUrl: 'https://x.test/a.mp4', name: 'n'.repeat(121) },
      'name',
    );
    await expectInvalid(
      'POST',
      '/videos/captions',
      { videoUrl: 'https://x.test/a.mp4', speaker: 'me' },
      'speaker',
    );
  });
});

describe('post metadata blocks (PATCH /videos/{id})', () => {
  let id: string;
  beforeEach(async () => {
    id = await createVideo(h);
  });

  const cases: [string, string, number][] = [
    ['youtubePost', 'title', 100],
    ['youtubePost', 'description', 5000],
    ['tiktokPost', 'title', 2200],
    ['instagramPost', 'caption', 2200],
    ['xPost', 'text', 280],
    ['facebookPost', 'description', 5000],
    ['linkedinPost', 'description', 3000],
    ['threadsPost', 'text', 500],
  ];

  it.each(cases)('%s.%s is at most %i characters', async (block, field, max) => {
    const base: Record<string, string> = block === 'youtubePost' ? { title: 'A title' } : {};
    const over = { [block]: { ...base, [field]: 'x'.repeat(max + 1) } };
    await expectInvalid('PATCH', `/videos/${id}`, over, `${block}.${field}`, String(max));
    const atLimit = { [block]: { ...base, [field]: 'x'.repeat(max) } };
    expect((await h.api('PATCH', `/videos/${id}`, { body: atLimit })).status).toBe(200);
  });

  it.each([
    ['youtubePost', 'title'],
    ['tiktokPost', 'title'],
    ['instagramPost', 'caption'],
    ['xPost', 'text'],
    ['facebookPost', 'description'],
    ['linkedinPost', 'description'],
    ['threadsPost', 'text'],
  ])('%s requires %s and accepts no other field', async (block, field) => {
    await expectInvalid('PATCH', `/videos/${id}`, { [block]: {} }, `${block}.${field}`);
    await expectInvalid(
      'PATCH',
      `/videos/${id}`,
      { [block]: { [field]: 'ok', hashtags: '#x' } },
      `${block}.hashtags`,
    );
  });

  it('youtubePost.privacyStatus is public, unlisted or private, default public', async () => {
    await expectInvalid(
      'PATCH',
      `/videos/${id}`,
      { youtubePost: { title: 't', privacyStatus: 'secret' } },
      'privacyStatus',
    );
    const res = await h.api<{ youtubePost: { privacyStatus: string } }>('PATCH', `/videos/${id}`, {
      body: { youtubePost: { title: 't' } },
    });
    expect(res.json.data.youtubePost.privacyStatus).toBe('public');
  });

  it('name is limited to 120 and unknown fields are refused', async () => {
    await expectInvalid('PATCH', `/videos/${id}`, { name: 'n'.repeat(121) }, 'name');
    await expectInvalid('PATCH', `/videos/${id}`, { script: 'new script here' }, 'script');
  });
});

describe('pagination bounds', () => {
  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
  ])('%s is refused naming %s', async (query, field) => {
    for (const path of ['/videos', '/credits']) {
      const res = await h.api('GET', `${path}?${query}`);
      expect(res.status).toBe(400);
      expect(res.json.error.message).toContain(field);
    }
  });

  it('accepts limit 1 and 100', async () => {
    expect((await h.api('GET', '/videos?limit=1')).status).toBe(200);
    expect((await h.api('GET', '/videos?limit=100&page=3')).status).toBe(200);
  });
});

describe('enums and ranges elsewhere', () => {
  it('series duration is 30, 60 or 90', async () => {
    await expectInvalid(
      'POST',
      '/series',
      { name: 's', source: 'ai_story', duration: 45 },
      'duration',
      '30, 60, 90',
    );
    await expectInvalid('POST', '/series', { name: 's', source: 'ai_story', duration: '60' }, 'duration');
    expect(
      (await h.api('POST', '/series', { body: { name: 's', source: 'ai_story', duration: 90 } })).status,
    ).toBe(201);
  });

  it('series fields: required name/source, HH:mm, weekdays, time zone, models, catalogs', async () => {
    await expectInvalid('POST', '/series', { source: 'ai_story' }, 'name');
    await expectInvalid('POST', '/series', { name: 's' }, 'source');
    await expectInvalid('POST', '/series', { name: 's', source: 'myspace' }, 'source');
    await expectInvalid(
      'POST',
      '/series',
      { name: 's', source: 'ai_story', autoPostTime: '9am' },
      'autoPostTime',
    );
    await expectInvalid(
      'POST',
      '/series',
      { name: 's', source: 'ai_story', postingDays: ['caturday'] },
      'postingDays[0]',
    );
    await expectInvalid(
      'POST',
      '/series',
      { name: 's', source: 'ai_story', timezone: 'Mars/Olympus' },
      'timezone',
    );
    await expectInvalid(
      'POST',
      '/series',
      { name: 's', source: 'ai_story', brollModel: 'ultra' },
      'brollModel',
    );
    await expectInvalid(
      'POST',
      '/series',
      { name: 's', source: 'ai_story', destination: 'myspace' },
      'destination',
    );
    await expectInvalid('POST', '/series', { name: 's', source: 'ai_story', voice: 'nobody' }, 'voice');
    await expectInvalid(
      'POST',
      '/series',
      { name: 's', source: 'ai_story', destinationAccounts: ['nope'] },
      'destinationAccounts[0]',
    );
    await expectInvalid('POST', '/series', { name: 's', source: 'ai_story', cadence: 'daily' }, 'cadence');
  });

  it('render codec is h264 or vp8', async () => {
    const id = await createVideo(h);
    await expectInvalid('POST', `/videos/${id}/render`, { codec: 'av1' }, 'codec', 'h264');
  });

  it('platforms are the seven platform values', async () => {
    const id = await createVideo(h);
    await expectInvalid('POST', '/posts', { videoId: id, platform: 'myspace' }, 'platform');
    await expectInvalid(
      'POST',
      '/posts/schedule',
      { videoId: id, platforms: ['youtube', 'myspace'], scheduledTime: '2026-02-01T10:00:00Z' },
      'platforms[1]',
    );
    await expectInvalid(
      'POST',
      '/posts/schedule',
      { videoId: id, platforms: [], scheduledTime: '2026-02-01T10:00:00Z' },
      'platforms',
    );
    await expectInvalid(
      'POST',
      '/posts/schedule',
      { videoId: id, platforms: ['x'], scheduledTime: 'tomorrow' },
      'scheduledTime',
    );
  });

  it('calendar needs both dates and knows its filters', async () => {
    const check = async (query: string, field: string) => {
      const res = await h.api('GET', `/calendar?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error.message).toContain(field);
    };
    await check('endDate=2026-01-31', 'startDate');
    await check('startDate=2026-01-01', 'endDate');
    await check('startDate=2026-13-01&endDate=2026-12-31', 'startDate');
    await check('startDate=01/02/2026&endDate=2026-12-31', 'startDate');
    await check('startDate=2026-02-01&endDate=2026-01-01', 'endDate');
    await check('startDate=2026-01-01&endDate=2026-01-31&status=cancelled', 'status');
    await check('startDate=2026-01-01&endDate=2026-01-31&platform=myspace', 'platform');
  });

  it('options kind and analytics range/platform are enums', async () => {
    const kind = await h.api('GET', '/options?kind=fonts');
    expect(kind.status).toBe(400);
    expect(kind.json.error.message).toContain('kind');
    const range = await h.api('GET', '/analytics?range=30');
    expect(range.status).toBe(400);
    expect(range.json.error.message).toContain('range');
    const platform = await h.api('GET', '/analytics?platform=x');
    expect(platform.status).toBe(400);
    expect(platform.json.error.message).toContain('platform');
  });

  it('thumbnail variantId is a non-empty string', async () => {
    const id = await createVideo(h);
    await expectInvalid('POST', `/videos/${id}/thumbnail`, {}, 'variantId');
    await expectInvalid('POST', `/videos/${id}/thumbnail`, { variantId: '' }, 'variantId');
  });

  it('POST /series/{id}/generate takes no body fields', async () => {
    const created = await h.api<{ id: string }>('POST', '/series', {
      body: { name: 's', source: 'ai_story' },
    });
    await expectInvalid('POST', `/series/${created.json.data.id}/generate`, { count: 2 }, 'count');
  });

  it('POST /assets needs a URL', async () => {
    await expectInvalid('POST', '/assets', {}, 'url');
    await expectInvalid('POST', '/assets', { url: 'file:///etc/passwd' }, 'url');
    await expectInvalid('POST', '/assets', { url: 'https://x.test/a.png', fileType: 'png' }, 'fileType');
  });

  it('an empty Idempotency-Key is refused', async () => {
    const res = await h.api('POST', '/videos', { body: video(), headers: { 'idempotency-key': ' ' } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('Idempotency-Key');
  });
});
