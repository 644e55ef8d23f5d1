import { z } from 'zod';
import type { Route } from '../router.js';
import { paginate, paginationQuery } from '../validation.js';
import { ledgerView, newestFirst } from '../views.js';
import { PLATFORMS } from '../vocabulary.js';
import { defineRoute, ok } from './define.js';

/** GET /me, GET /credits, GET /accounts: who the caller is and what the team has. */
export const accountRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    pattern: '/me',
    scope: null,
    handle: ({ team, key }) =>
      ok({
        team: { id: team.id, name: team.name, credits: team.balance },
        plan: team.plan,
        auth: { via: 'api_key', keyPrefix: key.key.slice(0, 12), scopes: [...key.scopes], legacy: false },
      }),
  }),

  defineRoute({
    method: 'GET',
    pattern: '/credits',
    scope: 'credits:read',
    query: z.strictObject(paginationQuery),
    handle: ({ engine, team }, { query }) => {
      const history = newestFirst(engine.store.ledger.filter((e) => e.teamId === team.id));
      const { items, pagination } = paginate(history, query);
      return { status: 200, data: { balance: team.balance, history: items.map(ledgerView) }, pagination };
    },
  }),

  defineRoute({
    method: 'GET',
    pattern: '/accounts',
    scope: 'accounts:read',
    handle: ({ team }) => {
      // Every platform is present, with an empty array when nothing is connected.
      const data: Record<string, { authId: string; label: string; isDefault: boolean }[]> = {};
      for (const platform of PLATFORMS) data[platform] = team.accounts[platform].map((a) => ({ ...a }));
      return ok(data);
    },
  }),
];
