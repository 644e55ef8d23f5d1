import type { CallOptions, OptionCatalog, OptionKind } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { OptionCatalogWire, OptionKindsWire, toOptionCatalog, toOptionKinds } from '../wire/catalog.js';
import { envelope } from '../wire/common.js';

/** GET /options: catalogs of styles, languages, models, … */
export class OptionsResource {
  constructor(private readonly client: Requester) {}

  async get(kind: OptionKind, o?: CallOptions): Promise<OptionCatalog> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/options', query: { kind }, schema: envelope(OptionCatalogWire) },
      o,
    );
    return toOptionCatalog(data, kind);
  }

  /** The available kinds (GET /options without `kind`). */
  async kinds(o?: CallOptions): Promise<string[]> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/options', schema: envelope(OptionKindsWire) },
      o,
    );
    return toOptionKinds(data);
  }
}
