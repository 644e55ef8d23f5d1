import { describe, expect, it } from 'vitest';
import { VideoApiError } from '../../src/api/index.js';
import { ME, VIDEO_LIST_ITEM } from './fixtures.js';
import { API_KEY, harness, ok } from './harness.js';

describe('a response that does not match the contract', () => {
  it.each([
    ['a missing required field', ok({ ...ME, team: { id: 't', name: 'T' } }), /team\.credits/],
    ['a wrong type', ok({ ...ME, plan: 42 }), /plan/],
    ['no data', { success: true }, /data/],
    ['a body that is not JSON', '<html>gateway</html>', /does not match/],
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
    expect(String(error)).not.toContain(API_KEY);
  });

  it('analytics in neither documented shape', async () => {
    const h = harness();
    h.reply('GET', '/analytics', 200, ok({ views: 3 }));
    await expect(h.clock.run(h.client.analytics.get())).rejects.toMatchObject({ type: 'invalid_response' });
  });

  it('an account entry with no id in either shape', async () => {
    const h = harness();
    h.reply('GET', '/accounts', 200, ok({ youtube: [{ label: 'nameless' }] }));
    await expect(h.clock.run(h.client.accounts.list())).rejects.toMatchObject({ type: 'invalid_response' });
  });

  it('a paginated list without pagination', async () => {
    const h = harness();
    h.reply('GET', '/videos', 200, ok([VIDEO_LIST_ITEM]));
    await expect(h.clock.run(h.client.videos.list())).rejects.toMatchObject({ type: 'invalid_response' });
  });
});
