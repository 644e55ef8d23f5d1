import type { CallOptions, Credits, PageQuery } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { pagedEnvelope, toPage } from '../wire/common.js';
import { CreditsWire, toLedgerEntry } from '../wire/credits.js';

/** GET /credits: balance and ledger. */
export class CreditsResource {
  constructor(private readonly client: Requester) {}

  async get(q?: PageQuery, o?: CallOptions): Promise<Credits> {
    const { data, pagination } = await this.client.request(
      {
        method: 'GET',
        route: '/credits',
        query: { page: q?.page, limit: q?.limit },
        schema: pagedEnvelope(CreditsWire),
      },
      o,
    );
    return {
      balance: data.balance,
      history: (data.history ?? []).map(toLedgerEntry),
      pagination: toPage(pagination, q ?? {}),
    };
  }
}
