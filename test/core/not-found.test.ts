import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/dispatch/context.js';
import { isNotFound, readOrNotFound } from '../../src/core/text/not-found.js';
import { VideoApiError } from '../../src/core/video-api/video-api.js';

const gone = new VideoApiError('not_found', 'Series not found', { status: 404 });

describe('not found', () => {
  it('is the video service answering 404, nothing else', () => {
    expect(isNotFound(gone)).toBe(true);
    expect(isNotFound(new VideoApiError('conflict', 'changed', { status: 409 }))).toBe(false);
    expect(isNotFound(new Error('not_found'))).toBe(false);
  });

  it('turns a 404 into the user error for the ref, and lets any other failure through', async () => {
    await expect(readOrNotFound(async () => 'kept', 'not-found-series', 'weekly')).resolves.toBe('kept');
    const error = await readOrNotFound(() => Promise.reject(gone), 'not-found-series', 'weekly').catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ code: 'not-found-series', params: { ref: 'weekly' } });
    const busy = new VideoApiError('rate_limited', 'slow down');
    await expect(readOrNotFound(() => Promise.reject(busy), 'not-found-video', 'v1')).rejects.toBe(busy);
  });
});
