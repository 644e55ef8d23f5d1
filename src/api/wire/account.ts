import { z } from 'zod';
import type { Account, Accounts, Me } from '../../core/video-api.js';
import { opt } from './common.js';

export const MeWire = z.object({
  team: z.object({ id: z.string(), name: z.string(), credits: z.number() }),
  plan: z.string(),
  auth: z.object({
    via: z.string(),
    keyPrefix: z.string(),
    scopes: z.array(z.string()),
    legacy: z.boolean(),
  }),
});

export function toMe(wire: z.output<typeof MeWire>): Me {
  return { team: { ...wire.team }, plan: wire.plan, auth: { ...wire.auth, scopes: [...wire.auth.scopes] } };
}

/** Newer entries carry `authId/label/isDefault`, older ones `id/channelName` (spec §2); either is accepted. */
const AccountEntryWire = z
  .object({
    authId: opt(z.string()),
    id: opt(z.string()),
    label: opt(z.string()),
    channelName: opt(z.string()),
    isDefault: opt(z.boolean()),
  })
  .refine((entry) => entry.authId !== undefined || entry.id !== undefined, {
    message: 'an account entry needs authId (or id in the older shape)',
  });

/** Keyed by platform value; a platform with no accounts may be an empty array or absent. */
export const AccountsWire = z.record(z.string(), opt(z.array(AccountEntryWire)));

function toAccount(wire: z.output<typeof AccountEntryWire>): Account {
  const authId = wire.authId ?? wire.id ?? '';
  return { authId, label: wire.label ?? wire.channelName ?? authId, isDefault: wire.isDefault ?? false };
}

export function toAccounts(wire: z.output<typeof AccountsWire>): Accounts {
  const accounts: Accounts = {};
  for (const [platform, entries] of Object.entries(wire)) accounts[platform] = (entries ?? []).map(toAccount);
  return accounts;
}
