import type { Accounts, CallOptions } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { AccountsWire, toAccounts } from '../wire/account.js';
import { envelope } from '../wire/common.js';

/** GET /accounts: connected social accounts by platform. */
export class AccountsResource {
  constructor(private readonly client: Requester) {}

  async list(o?: CallOptions): Promise<Accounts> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/accounts', schema: envelope(AccountsWire) },
      o,
    );
    return toAccounts(data);
  }
}
