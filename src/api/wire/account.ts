import { z } from 'zod';
import type { Account, Accounts, Me } from '../../core/video-api/video-api.js';
import {
  compact,
  optBoolean,
  optId,
  optList,
  optName,
  optPart,
  optText,
  reqName,
  reqNumber,
  reqRecord,
} from './common.js';

/**
 * GET /me. The team's name and credits are needed (balance checks); the rest is forgiving. The newer
 * reference drops `team.id`, `auth.keyPrefix` and `auth.legacy` (see `teamIdentity` in the core).
 */
export const MeWire = z.object({
  team: z.object({ id: optId(), name: reqName(), credits: reqNumber() }),
  plan: optText(),
  auth: optPart(
    z.object({ via: optText(), keyPrefix: optText(), scopes: optList(z.string()), legacy: optBoolean() }),
  ),
});

export function toMe(wire: z.output<typeof MeWire>): Me {
  const auth = wire.auth ?? {};
  return compact({
    team: compact({ id: wire.team.id, name: wire.team.name, credits: wire.team.credits }),
    plan: wire.plan,
    auth: compact({
      via: auth.via,
      keyPrefix: auth.keyPrefix,
      scopes: auth.scopes ? [...auth.scopes] : undefined,
      legacy: auth.legacy,
    }),
  });
}

/** Newer entries carry `authId/label/isDefault`, older ones `id/channelName` (spec §2); either is accepted. */
export const AccountEntryWire = z
  .object({
    authId: optId(),
    id: optId(),
    label: optName(),
    channelName: optText(),
    isDefault: optBoolean(),
  })
  .refine((entry) => entry.authId !== undefined || entry.id !== undefined, {
    message: 'an account entry needs authId (or id in the older shape)',
    path: ['authId'],
  });

/** Keyed by platform value; a platform with no accounts may be an empty array, null or absent. */
export const AccountsWire = reqRecord(optList(AccountEntryWire));

function toAccount(wire: z.output<typeof AccountEntryWire>): Account {
  const authId = wire.authId ?? wire.id ?? '';
  return { authId, label: wire.label ?? wire.channelName ?? authId, isDefault: wire.isDefault ?? false };
}

export function toAccounts(wire: z.output<typeof AccountsWire>): Accounts {
  const accounts: Accounts = {};
  for (const [platform, entries] of Object.entries(wire)) accounts[platform] = (entries ?? []).map(toAccount);
  return accounts;
}
