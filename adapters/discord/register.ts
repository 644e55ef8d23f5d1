/**
 * Registers `/reel` idempotently: reads what Discord has, compares it with what the core declares, and
 * bulk-overwrites (PUT) only when they differ. Guild-scoped with `DISCORD_GUILD_ID` (instant, for a team's
 * own server), else global. Run at start and by `npm run register-commands`.
 */
import { type APIApplicationCommand, type REST, Routes } from 'discord.js';
import type { CommandSpec, Logger } from '../../src/core/index.js';
import { buildCommandPayload } from './commands.js';

export interface RegisterOptions {
  rest: REST;
  applicationId: string;
  guildId?: string | undefined;
  commands: readonly CommandSpec[];
  logger?: Logger;
}

export interface RegisterResult {
  scope: 'guild' | 'global';
  changed: boolean;
  commands: string[];
}

/** Only the fields reelbot sets, with Discord's defaults filled in, so a fetched command compares equal. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value !== 'object' || value === null) return value;
  const o = value as Record<string, unknown>;
  const keep = [
    'type',
    'name',
    'description',
    'options',
    'choices',
    'value',
    'required',
    'autocomplete',
    'min_value',
    'max_value',
    'min_length',
    'max_length',
    'contexts',
  ];
  const out: Record<string, unknown> = {};
  for (const key of keep) {
    const v = o[key];
    if (v === undefined || v === null) continue;
    if ((key === 'required' || key === 'autocomplete') && v === false) continue;
    if ((key === 'options' || key === 'choices') && Array.isArray(v) && v.length === 0) continue;
    out[key] = key === 'contexts' && Array.isArray(v) ? [...v].sort() : normalise(v);
  }
  return out;
}

const fingerprint = (commands: readonly unknown[]) =>
  JSON.stringify(
    commands
      .map(normalise)
      .sort((a, b) => String((a as { name: string }).name).localeCompare((b as { name: string }).name)),
  );

export async function registerCommands(o: RegisterOptions): Promise<RegisterResult> {
  const payload = buildCommandPayload(o.commands);
  const route = o.guildId
    ? Routes.applicationGuildCommands(o.applicationId, o.guildId)
    : Routes.applicationCommands(o.applicationId);
  const scope = o.guildId ? 'guild' : 'global';
  const names = payload.map((c) => c.name);
  const existing = (await o.rest.get(route)) as APIApplicationCommand[];
  if (fingerprint(existing) === fingerprint(payload)) {
    o.logger?.info({ scope, commands: names }, 'discord commands unchanged');
    return { scope, changed: false, commands: names };
  }
  await o.rest.put(route, { body: payload });
  o.logger?.info({ scope, commands: names }, 'discord commands registered');
  return { scope, changed: true, commands: names };
}
