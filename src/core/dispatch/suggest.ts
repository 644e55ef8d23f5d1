/**
 * Autocomplete suggestions for typed options (Discord), from the caller's own team data.
 */

import type { OptionSpec } from '../parse/command-spec.js';
import type { SelectOption } from '../text/cards.js';
import { PLATFORMS } from '../video-api/video-api.js';
import type { CommandContext } from './context.js';

const matches = (label: string, query: string) => label.toLowerCase().includes(query.trim().toLowerCase());
const clip = (s: string, n = 100) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Videos or series matched by name or id, after `last` when this member has one of that kind. */
async function named(
  ctx: CommandContext,
  { kind, items }: { kind: 'video' | 'series'; items: { id: string; name: string }[] },
  query: string,
): Promise<SelectOption[]> {
  const out = items.filter((item) => matches(item.name, query) || item.id === query.trim());
  return [
    ...((await ctx.deps.store.users.getLast(ctx.req.user, kind))
      ? [{ label: 'last (your most recent)', value: 'last' }]
      : []),
    ...out.map((item) => ({ label: clip(item.name), value: item.id })),
  ];
}

export async function suggestFor(
  ctx: CommandContext,
  option: OptionSpec,
  query: string,
): Promise<SelectOption[]> {
  const api = await ctx.api();
  // Options taking a catalog's values: the team's catalog, matched by name or value.
  if (option.catalog && (option.kind === 'string' || option.kind === 'choice')) {
    const { items } = await ctx.deps.catalog.options(api, await ctx.apiKeyId(), option.catalog);
    return items
      .filter((i) => matches(`${i.name} ${i.value}`, query))
      .map((i) => ({ label: clip(i.name === i.value ? i.name : `${i.name} (${i.value})`), value: i.value }));
  }
  switch (option.kind) {
    case 'video':
      return named(
        ctx,
        { kind: 'video', items: (await api.videos.list({ page: 1, limit: 50 })).items },
        query,
      );
    case 'series':
      return named(ctx, { kind: 'series', items: await api.series.list() }, query);
    case 'voice': {
      const voices = await ctx.deps.catalog.voices(api, await ctx.apiKeyId());
      return voices
        .filter((v) => matches(`${v.name} ${v.labels?.language ?? ''} ${v.labels?.accent ?? ''}`, query))
        .map((v) => ({
          label: clip(
            [v.name, v.labels?.language, v.labels?.gender, v.isCustom ? 'custom' : '']
              .filter(Boolean)
              .join(' · '),
          ),
          value: v.id,
        }));
    }
    case 'account': {
      const accounts = await ctx.deps.catalog.accounts(api, await ctx.apiKeyId());
      return Object.entries(accounts).flatMap(([platform, list]) =>
        list
          .filter((a) => matches(`${platform} ${a.label}`, query))
          .map((a) => ({ label: clip(`${platform}: ${a.label}`), value: a.authId })),
      );
    }
    case 'platforms': {
      // `youtube,ti` → `youtube,tiktok`: the typed list with its last name completed.
      const typed = query.split(',').map((p) => p.trim().toLowerCase());
      const last = typed.pop() ?? '';
      const head = typed.filter(Boolean);
      const rest = PLATFORMS.filter((p) => p.startsWith(last) && !head.includes(p));
      const lists = rest.map((p) => [...head, p].join(','));
      return [...lists, ...(head.length === 0 ? ['all'] : [])]
        .filter((v) => v.includes(last))
        .map((v) => ({ label: v, value: v }));
    }
    default:
      return (option.choices ?? []).filter((c) => matches(c, query)).map((c) => ({ label: c, value: c }));
  }
}
