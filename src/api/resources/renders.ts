import type { CallOptions, Render } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { envelope } from '../wire/common.js';
import { RenderWire, toRender } from '../wire/video.js';

/** GET /renders/{id}: a render started by `videos.render`. */
export class RendersResource {
  constructor(private readonly client: Requester) {}

  async get(renderId: string, o?: CallOptions): Promise<Render> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/renders/:id', params: { id: renderId }, schema: envelope(RenderWire) },
      o,
    );
    return toRender(data, renderId);
  }
}
