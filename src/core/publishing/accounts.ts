/**
 * Which connected account a post goes to: the one named (label or authId), else the only one, else the
 * platform's default; with several and no default the caller is asked.
 */
import { type CommandContext, userError } from '../dispatch/context.js';
import { platformName } from '../platforms/post-blocks.js';
import { type Account, type Platform, VideoApiError } from '../video-api/video-api.js';

export type AccountChoice =
  /** Post with this account; `undefined` lets the service pick (no accounts scope to look them up). */
  { kind: 'use'; account: Account | undefined } | { kind: 'ask'; accounts: Account[] };

export async function chooseAccount(
  ctx: CommandContext,
  platform: Platform,
  wanted?: string,
): Promise<AccountChoice> {
  let list: Account[];
  try {
    const api = await ctx.api();
    const cached = await ctx.deps.catalog.accounts(api, await ctx.apiKeyId());
    list = cached[platform] ?? [];
    // The catalog is cached for minutes: an account connected just now must not read as "none".
    if (list.length === 0) list = (await api.accounts.list())[platform] ?? [];
  } catch (error) {
    // A key without `accounts:read` can still publish: the service picks the default account, and an
    // explicit account is passed through as its id.
    if (error instanceof VideoApiError && error.type === 'forbidden_scope') {
      return {
        kind: 'use',
        account: wanted ? { authId: wanted, label: wanted, isDefault: false } : undefined,
      };
    }
    throw error;
  }
  if (list.length === 0) throw userError('no-account', { platform: platformName(platform) });
  if (wanted !== undefined && wanted.trim() !== '') {
    const w = wanted.trim().toLowerCase();
    const byId = list.find((a) => a.authId === wanted.trim());
    const byLabel = list.filter((a) => a.label.toLowerCase() === w);
    const byPrefix = list.filter((a) => a.label.toLowerCase().startsWith(w));
    const hit = byId ?? (byLabel.length === 1 ? byLabel[0] : byPrefix.length === 1 ? byPrefix[0] : undefined);
    if (!hit) throw userError('not-found-account', { platform: platformName(platform), ref: wanted });
    return { kind: 'use', account: hit };
  }
  if (list.length === 1) return { kind: 'use', account: list[0] };
  const preferred = list.find((a) => a.isDefault);
  return preferred ? { kind: 'use', account: preferred } : { kind: 'ask', accounts: list };
}
