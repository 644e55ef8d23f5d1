import { describe, expect, it } from 'vitest';
import { VideoApiError } from '../../src/api/index.js';
import { ME, VIDEO_LIST_ITEM } from './fixtures.js';
import { API_KEY, harness, ok } from './harness.js';

describe('a response without a field the operation needs', () => {
  it.each([
    ['a missing required field', ok({ ...ME, team: { id: 't', name: 'T' } }), /data\.team\.credits/],
    ['a wrong type', ok({ ...ME, team: { ...ME.team, credits: 'lots' } }), /data\.team\.credits/],
    ['no data', { success: true }, /\bdata\b/],
    ['a body that is not JSON', '<html>gateway</html>', /\bbody\b/],
  ])('%s → invalid_response naming the field, without the key', async (_name, body, field) => {
    const h = harness();
    h.reply('GET', '/me', 200, body);
    const error = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoApiError);
    expect(error).toMatchObject({
      type: 'invalid_response',
      details: { status: 200, method: 'GET', path: '/me' },
    });
    expect((error as Error).message).toMatch(field);
    expect((error as Error).message).toMatch(/^GET \/me: /);
    expect(String(error)).not.toContain(API_KEY);
  });

  it('analytics in neither documented shape', async () => {
    const h = harness();
    h.reply('GET', '/analytics', 200, ok({ views: 3 }));
    await expect(h.clock.run(h.client.analytics.get())).rejects.toMatchObject({ type: 'invalid_response' });
  });

  it('an account entry with no id in either shape is dropped, not a failure', async () => {
    const h = harness();
    h.reply('GET', '/accounts', 200, ok({ youtube: [{ label: 'nameless' }, { id: 'acc_1' }] }));
    expect(await h.clock.run(h.client.accounts.list())).toEqual({
      youtube: [{ authId: 'acc_1', label: 'acc_1', isDefault: false }],
    });
  });

  it('a paginated list without pagination', async () => {
    const h = harness();
    h.reply('GET', '/videos', 200, ok([VIDEO_LIST_ITEM]));
    await expect(h.clock.run(h.client.videos.list())).rejects.toMatchObject({ type: 'invalid_response' });
  });
});
