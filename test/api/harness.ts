import { MockAgent } from 'undici';
import type { MockInterceptor } from 'undici/types/mock-interceptor.js';
import {
  createVideoApiClient,
  type VideoApiClient,
  type VideoApiClientOptions,
} from '../../src/api/index.js';
import { TestClock } from '../support/test-clock.js';

export const ORIGIN = 'https://video.test';
export const BASE_URL = `${ORIGIN}/api/v1`;
export const API_KEY = 'sk_live_TESTKEY_0123456789abcdef';

/** One request as the mock server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** Virtual time of arrival. */
  at: number;
}

export interface Harness {
  client: VideoApiClient;
  clock: TestClock;
  agent: MockAgent;
  seen: SeenRequest[];
  /** Queues one reply (or `times` identical ones) for `method path` (path after /api/v1, query included). */
  reply(
    method: string,
    path: string | RegExp,
    status: number,
    body?: unknown,
    opts?: { headers?: Record<string, string>; times?: number },
  ): void;
}

export function ok(data: unknown, pagination?: { page: number; limit: number; total: number }) {
  return pagination ? { success: true, data, pagination } : { success: true, data };
}

export function fail(type: string, message = `${type} happened`) {
  return { success: false, error: { type, message } };
}

export function harness(options: Partial<VideoApiClientOptions> = {}): Harness {
  const clock = new TestClock({ sleep: 'waits' });
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const seen: SeenRequest[] = [];
  const client = createVideoApiClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    dispatcher: agent,
    clock,
    random: () => 0.5,
    ...options,
  });
  const reply: Harness['reply'] = (method, path, status, body, opts = {}) => {
    const fullPath = typeof path === 'string' ? `/api/v1${path}` : (p: string) => path.test(p);
    const interceptor = pool
      .intercept({ method, path: fullPath })
      .reply((req: MockInterceptor.MockResponseCallbackOptions) => {
        const headers = Object.fromEntries(
          Object.entries((req.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
        );
        const text = typeof req.body === 'string' ? req.body : undefined;
        seen.push({
          method: req.method,
          path: req.path.replace(/^\/api\/v1/, ''),
          headers,
          body: text === undefined ? undefined : JSON.parse(text),
          at: clock.now(),
        });
        return {
          statusCode: status,
          data: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
          responseOptions: { headers: { 'content-type': 'application/json', ...opts.headers } },
        };
      });
    if (opts.times !== undefined) interceptor.times(opts.times);
  };
  return { client, clock, agent, seen, reply };
}
