/** Discord's interaction JSON as HTTP interactions bring it, read into an `Inbound` (checked by raw-reader.ts). */
import { InteractionType } from 'discord.js';
import { titleOfComponents } from '../components.js';
import type { DiscordAttachment } from '../file-input.js';
import type { Inbound, InboundBase } from '../inbound.js';
import type { SubmittedFields } from '../modal.js';
import { walkOptions } from './options.js';
import { BadInteraction, readRawInteraction } from './raw-reader.js';

export { BadInteraction };

/** Parses Discord's interaction JSON; throws `BadInteraction` when it is not one. */
export function fromRaw(json: unknown): Inbound {
  const i = readRawInteraction(json);
  if (i.type === InteractionType.Ping) return { kind: 'ping' };
  const who = i.member?.user ?? i.user;
  const channelId = i.channel_id ?? i.channel?.id;
  if (!who || !channelId) throw new BadInteraction('interaction without a user or channel');
  const base: InboundBase = {
    id: i.id,
    token: i.token,
    applicationId: i.application_id,
    ...(i.guild_id ? { guildId: i.guild_id } : {}),
    channelId,
    user: { id: who.id, name: i.member?.nick || who.global_name || who.username },
    roles: i.member?.roles ?? [],
    rolesKnown: !i.guild_id || i.member !== undefined,
    ...(i.member?.permissions ? { permissions: i.member.permissions } : {}),
  };
  const data = i.data ?? {};
  switch (i.type) {
    case InteractionType.ApplicationCommand:
    case InteractionType.ApplicationCommandAutocomplete: {
      const walked = walkOptions(data.name ?? '', data.options);
      if (i.type === InteractionType.ApplicationCommand) {
        return { kind: 'command', ...base, path: walked.path, options: walked.options, ...rawFiles(data) };
      }
      return {
        kind: 'autocomplete',
        ...base,
        path: walked.path,
        focused: walked.focused ?? { name: '', value: '' },
      };
    }
    case InteractionType.MessageComponent: {
      if (!i.message || data.custom_id === undefined) throw new BadInteraction('component without message');
      const title = i.message.embeds?.[0]?.title ?? titleOfComponents(i.message.components ?? []);
      const label = findLabel(i.message.components ?? [], data.custom_id);
      return {
        kind: 'component',
        ...base,
        customId: data.custom_id,
        ...(data.values ? { values: data.values } : {}),
        message: {
          id: i.message.id,
          flags: i.message.flags ?? 0,
          ...(title ? { title } : {}),
          ...(i.message.attachments?.length
            ? { attachments: i.message.attachments.map((a) => ({ id: a.id, filename: a.filename })) }
            : {}),
        },
        ...(label ? { label } : {}),
      };
    }
    case InteractionType.ModalSubmit: {
      const fields: SubmittedFields = {};
      for (const top of data.components ?? []) {
        for (const field of [...(top.components ?? []), ...(top.component ? [top.component] : [])]) {
          if (!field.custom_id) continue;
          fields[field.custom_id] = field.values ? { values: field.values } : { value: field.value ?? '' };
        }
      }
      return {
        kind: 'modal',
        ...base,
        customId: data.custom_id ?? '',
        fields,
        ...rawFiles(data),
        ...(i.message ? { message: { id: i.message.id, flags: i.message.flags ?? 0 } } : {}),
      };
    }
    default:
      return { kind: 'other', ...base };
  }
}

/** A raw interaction's resolved attachments and, for a message command, its message. */
function rawFiles(data: Record<string, unknown>): {
  attachments?: Record<string, DiscordAttachment>;
  target?: { content: string; attachments: DiscordAttachment[] };
} {
  const resolved = (data.resolved ?? {}) as {
    attachments?: Record<string, DiscordAttachment>;
    messages?: Record<string, { content?: string; attachments?: DiscordAttachment[] }>;
  };
  const message = data.type === 3 ? resolved.messages?.[String(data.target_id)] : undefined;
  return {
    ...(resolved.attachments ? { attachments: resolved.attachments } : {}),
    ...(message
      ? { target: { content: message.content ?? '', attachments: message.attachments ?? [] } }
      : {}),
  };
}

function findLabel(components: readonly unknown[], customId: string): string | undefined {
  for (const c of components) {
    if (typeof c !== 'object' || c === null) continue;
    const o = c as { custom_id?: unknown; label?: unknown; components?: unknown; accessory?: unknown };
    if (o.custom_id === customId && typeof o.label === 'string') return o.label;
    // Components V2: buttons also sit in containers' rows and beside sections' text.
    const nested = [
      ...(Array.isArray(o.components) ? o.components : []),
      ...(o.accessory ? [o.accessory] : []),
    ];
    if (nested.length > 0) {
      const found = findLabel(nested, customId);
      if (found) return found;
    }
  }
  return undefined;
}
