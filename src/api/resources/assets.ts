import type { Asset, AssetInput, IdempotentCallOptions } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { AssetWire, toAsset } from '../wire/asset.js';
import { idempotentPost } from './idempotent-post.js';

/** POST /assets: registers already-hosted media by URL. */
export class AssetsResource {
  constructor(private readonly client: Requester) {}

  async create(body: AssetInput, o: IdempotentCallOptions): Promise<Asset> {
    const data = await idempotentPost(this.client, { route: '/assets', body, schema: AssetWire }, o);
    return toAsset(data, body);
  }
}
