import type { CallOptions, Voice } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { toVoice, VoiceWire } from '../wire/catalog.js';
import { envelope, reqList } from '../wire/common.js';

/** GET /voices: the voice catalog, the team's custom voices included. */
export class VoicesResource {
  constructor(private readonly client: Requester) {}

  async list(o?: CallOptions): Promise<Voice[]> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/voices', schema: envelope(reqList(VoiceWire)) },
      o,
    );
    return data.map(toVoice);
  }
}
