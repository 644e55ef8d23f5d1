import type { Analytics, AnalyticsQuery, CallOptions } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { AnalyticsWire, toAnalytics } from '../wire/analytics.js';
import { envelope } from '../wire/common.js';

/** GET /analytics: views and posts across platforms, either documented shape. */
export class AnalyticsResource {
  constructor(private readonly client: Requester) {}

  async get(q?: AnalyticsQuery, o?: CallOptions): Promise<Analytics> {
    const { data } = await this.client.request(
      {
        method: 'GET',
        route: '/analytics',
        query: { platform: q?.platform, authId: q?.authId, range: q?.range },
        schema: envelope(AnalyticsWire),
      },
      o,
    );
    return toAnalytics(data, q?.range);
  }
}
