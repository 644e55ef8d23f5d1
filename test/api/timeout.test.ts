import { describe, expect, it } from 'vitest';
import { DEFAULTS, type ResponseEvent, TimeoutError } from '../../src/api/index.js';
import { ME } from './fixtures.js';
import { fail, harness, ORIGIN, ok } from './harness.js';

/** A mock reply that arrives after `ms` of real time (the fake clock decides the timeout). */
function slowReply(h: ReturnType<typeof harness>, method: string, path: string, ms: number) {
  h.agent
    .get(ORIGIN)
    .intercept({ method, path: `/api/v1${path}` })
    .reply(200, ok(ME))
    .delay(ms);
}

describe('timeouts', () => {
  it('defaults to 15 s per attempt', () => {
    expect(DEFAULTS.timeoutMs).toBe(15_000);
  });

  it('a GET that times out is retried, then fails with TimeoutError', async () => {
    const events: ResponseEvent[] = [];
    const h = harness({ timeoutMs: 2000, maxAttempts: 2, onResponse: (e) => events.push(e) });
    slowReply(h, 'GET', '/me', 60_000);
    slowReply(h, 'GET', '/me', 60_000);
    const call = h.client.me.get().catch((e: unknown) => e);
    await h.clock.pass(2000);
    expect(events).toMatchObject([{ status: 0, errorType: 'timeout', attempt: 1, durationMs: 2000 }]);
    await h.clock.pass(250 + 2000);
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ type: 'timeout', details: { method: 'GET', path: '/me' } });
    expect(events).toHaveLength(2);
  });

  it('a timed-out PATCH is not retried (it may have been applied)', async () => {
    const events: ResponseEvent[] = [];
    const h = harness({ timeoutMs: 1000, onResponse: (e) => events.push(e) });
    slowReply(h, 'PATCH', '/videos/vid_1', 60_000);
    const call = h.client.videos.update('vid_1', { name: 'n' }).catch((e: unknown) => e);
    await h.clock.pass(1000);
    expect(await call).toBeInstanceOf(TimeoutError);
    expect(events).toHaveLength(1);
  });

  it('a reply inside the timeout is not affected, and leaves no timer behind', async () => {
    const h = harness({ timeoutMs: 1000 });
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    expect(h.clock.pending()).toEqual([]);
  });
});

describe('AbortSignal', () => {
  it('an already aborted signal sends nothing', async () => {
    const h = harness();
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(h.client.me.get({ signal: controller.signal })).rejects.toThrow('gone');
    expect(h.seen).toHaveLength(0);
  });

  it('aborting in flight rejects with the reason and is not retried', async () => {
    const events: ResponseEvent[] = [];
    const h = harness({ onResponse: (e) => events.push(e) });
    slowReply(h, 'GET', '/me', 60_000);
    const controller = new AbortController();
    const call = h.client.me.get({ signal: controller.signal }).catch((e: unknown) => e);
    await h.clock.pass(10);
    controller.abort(new Error('user cancelled'));
    const error = await call;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('user cancelled');
    expect(events).toHaveLength(0);
    expect(h.clock.pending()).toEqual([]);
  });

  it('aborting during a retry backoff stops the retries', async () => {
    const h = harness();
    h.reply('GET', '/me', 500, fail('internal_error'), { times: 4 });
    const controller = new AbortController();
    const call = h.client.me.get({ signal: controller.signal }).catch((e: unknown) => e);
    await h.clock.pass(0);
    expect(h.seen).toHaveLength(1);
    expect(h.clock.pending()).toEqual([250]);
    controller.abort(new Error('stop'));
    expect(((await call) as Error).message).toBe('stop');
    await h.clock.pass(10_000);
    expect(h.seen).toHaveLength(1);
  });

  it('aborting while waiting for the rate budget', async () => {
    const h = harness();
    h.reply('POST', '/series', 200, ok({ id: 's', name: 'S' }), { times: 5 });
    for (let i = 0; i < 5; i++) {
      await h.clock.run(h.client.series.create({ name: 'S', source: 'x' }, { idempotencyKey: `s${i}` }));
    }
    await h.clock.pass(250_000);
    const controller = new AbortController();
    const call = h.client.series
      .create({ name: 'S', source: 'x' }, { idempotencyKey: 's5', signal: controller.signal })
      .catch((e: unknown) => e);
    await h.clock.pass(1000);
    expect(h.client.budget.usage().waiting.interactive).toBe(1);
    controller.abort(new Error('never mind'));
    expect(((await call) as Error).message).toBe('never mind');
    expect(h.client.budget.usage().waiting.interactive).toBe(0);
    expect(h.seen).toHaveLength(5);
  });
});
