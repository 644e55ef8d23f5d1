/**
 * Whether the bot can post in a Discord channel (`settings alerts #channel`), computed as Discord does
 * (https://discord.com/developers/docs/topics/permissions#permission-overwrites): the @everyone role and the
 * bot's roles, then the channel's overwrites for @everyone, its roles and itself; it needs View Channel and
 * Send Messages. A channel of another server says so; one it cannot see (403/404) answers no; any other failure
 * answers "cannot tell", which the core refuses. The bot's user id is its application's id.
 */
import { type REST, Routes } from 'discord.js';
import type { ChannelAccess } from '../../src/core/index.js';
import { decodeAddress } from '../../src/core/index.js';

const ADMINISTRATOR = 1n << 3n;
const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const NEEDED = VIEW_CHANNEL | SEND_MESSAGES;

interface Overwrite {
  id: string;
  type: number;
  allow: string;
  deny: string;
}
interface Channel {
  guild_id?: string;
  permission_overwrites?: Overwrite[];
}

export function discordChannelAccess(rest: REST, o: { guildId: string; botId: string }): ChannelAccess {
  return {
    async botCanPost(conversation) {
      try {
        const channel = (await rest.get(Routes.channel(decodeAddress(conversation).id))) as Channel;
        if (channel.guild_id !== o.guildId) return 'other-workspace';
        const [member, roles] = await Promise.all([
          rest.get(Routes.guildMember(o.guildId, o.botId)) as Promise<{ roles?: string[] }>,
          rest.get(Routes.guildRoles(o.guildId)) as Promise<{ id: string; permissions: string }[]>,
        ]);
        const held = new Set([o.guildId, ...(member.roles ?? [])]);
        let base = 0n;
        for (const role of roles) if (held.has(role.id)) base |= BigInt(role.permissions);
        if ((base & ADMINISTRATOR) !== 0n) return true;
        return (overwritten(base, channel.permission_overwrites ?? [], { ...o, held }) & NEEDED) === NEEDED;
      } catch (error) {
        const status = (error as { status?: unknown }).status;
        return status === 403 || status === 404 ? false : undefined;
      }
    },
  };
}

/** The channel's overwrites applied in Discord's order: @everyone, then the roles together, then the member. */
function overwritten(
  base: bigint,
  overwrites: Overwrite[],
  o: { guildId: string; botId: string; held: Set<string> },
): bigint {
  const apply = (p: bigint, allow: bigint, deny: bigint) => (p & ~deny) | allow;
  const everyone = overwrites.find((w) => w.id === o.guildId);
  let p = everyone ? apply(base, BigInt(everyone.allow), BigInt(everyone.deny)) : base;
  let allow = 0n;
  let deny = 0n;
  for (const w of overwrites) {
    if (w.type !== 0 || w.id === o.guildId || !o.held.has(w.id)) continue;
    allow |= BigInt(w.allow);
    deny |= BigInt(w.deny);
  }
  p = apply(p, allow, deny);
  const own = overwrites.find((w) => w.type === 1 && w.id === o.botId);
  return own ? apply(p, BigInt(own.allow), BigInt(own.deny)) : p;
}
