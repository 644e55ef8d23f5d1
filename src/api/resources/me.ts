import type { CallOptions, Me } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { MeWire, toMe } from '../wire/account.js';
import { envelope } from '../wire/common.js';

/** GET /me: the team, plan and key behind the client. */
export class MeResource {
  constructor(private readonly client: Requester) {}

  async get(o?: CallOptions): Promise<Me> {
    const { data } = await this.client.request({ method: 'GET', route: '/me', schema: envelope(MeWire) }, o);
    return toMe(data);
  }
}
