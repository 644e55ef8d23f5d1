/**
 * A series' catalog values, voice and accounts, matched against the team's catalogs with the caller's key
 * (GETs only), so a typo is answered with the real choices.
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import { code } from '../text/text.js';
import { type OptionKind, VideoApiError } from '../video-api/video-api.js';

/**
 * A catalog value given by value or display name (case-insensitive). When the catalog cannot be read
 * (no `catalog:read` scope, service hiccup) the text is sent as typed and the service judges it.
 */
export async function catalogValue(
  ctx: CommandContext,
  input: { kind: OptionKind; value: string; what: string; strict: boolean; option: string },
): Promise<string> {
  let items: { value: string; name: string }[];
  try {
    items = (await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), input.kind)).items;
  } catch (e) {
    if (e instanceof VideoApiError) return input.value;
    throw e;
  }
  if (items.length === 0) return input.value;
  const lower = input.value.trim().toLowerCase();
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .trim();
  const hit =
    items.find((i) => i.value.toLowerCase() === lower) ??
    items.find((i) => i.name.toLowerCase() === lower) ??
    items.find((i) => norm(i.value) === norm(input.value) || norm(i.name) === norm(input.value));
  if (hit) return hit.value;
  if (!input.strict) return input.value.trim();
  throw userError('series-unknown-value', {
    value: input.value,
    what: input.what,
    allowed: items
      .slice(0, 25)
      .map((i) => code(i.value))
      .join(', '),
    option: input.option,
  });
}

/** Voice by id, exact name, or unique name prefix (case-insensitive). */
export async function resolveVoiceId(ctx: CommandContext, ref: string): Promise<string> {
  const voices = await ctx.deps.catalog.voices(await ctx.api(), await ctx.apiKeyId());
  const wanted = ref.trim().toLowerCase();
  const byId = voices.find((v) => v.id.toLowerCase() === wanted);
  if (byId) return byId.id;
  const exact = voices.filter((v) => v.name.toLowerCase() === wanted);
  const prefixed = exact.length > 0 ? exact : voices.filter((v) => v.name.toLowerCase().startsWith(wanted));
  if (prefixed.length === 1) return (prefixed[0] as { id: string }).id;
  throw userError('not-found-voice', { ref, option: 'voice' });
}

/** `Main channel, @brand` → account ids, matched by id or label, preferring the destination platform. */
export async function resolveAccounts(
  ctx: CommandContext,
  text: string,
  platform?: string,
): Promise<string[]> {
  const accounts = await ctx.deps.catalog.accounts(await ctx.api(), await ctx.apiKeyId());
  const entries = Object.entries(accounts).flatMap(([p, list]) => list.map((a) => ({ ...a, platform: p })));
  entries.sort((a, b) => Number(b.platform === platform) - Number(a.platform === platform));
  const out: string[] = [];
  for (const ref of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const lower = ref.toLowerCase();
    const hit = entries.find((a) => a.authId === ref) ?? entries.find((a) => a.label.toLowerCase() === lower);
    if (!hit)
      throw userError('not-found-account', { ref, platform: platform ?? 'connected', option: 'accounts' });
    if (!out.includes(hit.authId)) out.push(hit.authId);
  }
  return out;
}
