/**
 * One internal shape for an interaction, whether it arrived over the gateway (a discord.js `Interaction`) or
 * over HTTP (Discord's raw JSON, validated here with zod). Everything after this file is one code path.
 */
import {
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  GuildMember,
  type Interaction,
  InteractionType,
  type MessageContextMenuCommandInteraction,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import { z } from 'zod';
import { titleOfComponents } from './components.js';
import type { DiscordAttachment } from './file-input.js';
import type { SubmittedFields } from './modal.js';

export interface InboundBase {
  id: string;
  token: string;
  applicationId: string;
  /** Absent in direct messages. */
  guildId?: string;
  channelId: string;
  user: { id: string; name: string };
  /** Role ids of the member (guilds only). */
  roles: string[];
  /** False in a guild interaction that came without its member (roles unknown: approvals by role refused). */
  rolesKnown?: boolean;
  /** The member's permission bitfield in the channel, as Discord sends it (guilds only). */
  permissions?: string;
}

/** `/reel [group] sub` with its options, by Discord option name. */
export interface CommandPath {
  command: string;
  group?: string;
  sub?: string;
}

export type Inbound =
  | { kind: 'ping' }
  | ({
      kind: 'command';
      path: CommandPath;
      options: Record<string, string | number | boolean>;
      /** Attachments given as options (`file:`), by id. */
      attachments?: Record<string, DiscordAttachment>;
      /** A message command's message (its text and files). */
      target?: { content: string; attachments: DiscordAttachment[] };
    } & InboundBase)
  | ({ kind: 'autocomplete'; path: CommandPath; focused: { name: string; value: string } } & InboundBase)
  | ({
      kind: 'component';
      customId: string;
      /** A select's chosen values. */
      values?: string[];
      message: { id: string; title?: string; flags: number };
      /** The clicked button's label. */
      label?: string;
    } & InboundBase)
  | ({
      kind: 'modal';
      customId: string;
      fields: SubmittedFields;
      /** Files uploaded in the modal, by attachment id (a file upload's value). */
      attachments?: Record<string, DiscordAttachment>;
      /** Set when the modal was opened from a message's button. */
      message?: { id: string; flags: number };
    } & InboundBase)
  /** An interaction type reelbot does not handle. */
  | ({ kind: 'other' } & InboundBase);

/** The option tree as both discord.js and the raw payload give it. */
interface OptionNode {
  type: number;
  name: string;
  value?: unknown;
  focused?: boolean | undefined;
  options?: readonly OptionNode[] | undefined;
}

const SUBCOMMAND = 1;
const SUBCOMMAND_GROUP = 2;

function walkOptions(command: string, nodes: readonly OptionNode[] | undefined) {
  const path: CommandPath = { command };
  const options: Record<string, string | number | boolean> = {};
  let focused: { name: string; value: string } | undefined;
  const visit = (list: readonly OptionNode[] | undefined) => {
    for (const node of list ?? []) {
      if (node.type === SUBCOMMAND_GROUP) {
        path.group = node.name;
        visit(node.options);
      } else if (node.type === SUBCOMMAND) {
        path.sub = node.name;
        visit(node.options);
      } else {
        if (node.focused) focused = { name: node.name, value: String(node.value ?? '') };
        else if (
          typeof node.value === 'string' ||
          typeof node.value === 'number' ||
          typeof node.value === 'boolean'
        ) {
          options[node.name] = node.value;
        }
      }
    }
  };
  visit(nodes);
  return { path, options, focused };
}

// ---- raw JSON (HTTP interactions) ------------------------------------------------------------------------

const rawUser = z.object({ id: z.string(), username: z.string(), global_name: z.string().nullish() });
const optionNode: z.ZodType<OptionNode> = z.lazy(() =>
  z.object({
    type: z.number(),
    name: z.string(),
    value: z.unknown().optional(),
    focused: z.boolean().optional(),
    options: z.array(optionNode).optional(),
  }),
);
const rawModalField = z.object({
  type: z.number(),
  custom_id: z.string().optional(),
  value: z.string().nullish(),
  values: z.array(z.string()).optional(),
});
const rawModalComponent = z.object({
  type: z.number(),
  components: z.array(rawModalField).optional(),
  component: rawModalField.optional(),
});
const rawMessage = z.object({
  id: z.string(),
  flags: z.number().optional(),
  embeds: z.array(z.object({ title: z.string().optional() }).loose()).optional(),
  components: z.array(z.unknown()).optional(),
});
const rawInteraction = z.object({
  type: z.number(),
  id: z.string(),
  application_id: z.string(),
  token: z.string(),
  guild_id: z.string().optional(),
  channel_id: z.string().optional(),
  channel: z.object({ id: z.string() }).loose().optional(),
  member: z
    .object({
      user: rawUser,
      roles: z.array(z.string()),
      nick: z.string().nullish(),
      permissions: z.string().optional(),
    })
    .loose()
    .optional(),
  user: rawUser.optional(),
  message: rawMessage.optional(),
  data: z
    .object({
      name: z.string().optional(),
      options: z.array(optionNode).optional(),
      custom_id: z.string().optional(),
      values: z.array(z.string()).optional(),
      components: z.array(rawModalComponent).optional(),
    })
    .loose()
    .optional(),
});

export class BadInteraction extends Error {
  override readonly name = 'BadInteraction';
}

/** Parses Discord's interaction JSON; throws `BadInteraction` when it is not one. */
export function fromRaw(json: unknown): Inbound {
  const parsed = rawInteraction.safeParse(json);
  if (!parsed.success) throw new BadInteraction(parsed.error.issues[0]?.message ?? 'not an interaction');
  const i = parsed.data;
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
        message: { id: i.message.id, flags: i.message.flags ?? 0, ...(title ? { title } : {}) },
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

/** discord.js attachments as the adapter reads them. */
const attachmentOf = (a: { id: string; name: string; size: number; url: string }): DiscordAttachment => ({
  id: a.id,
  filename: a.name,
  size: a.size,
  url: a.url,
});

/** A chat input command's attachment options, resolved. */
function gatewayFiles(interaction: ChatInputCommandInteraction): {
  attachments?: Record<string, DiscordAttachment>;
} {
  const files = interaction.options.resolved?.attachments;
  return files ? { attachments: Object.fromEntries([...files].map(([id, a]) => [id, attachmentOf(a)])) } : {};
}

/** "Make a video from this": the message command with its message's text and files. */
function messageCommand(interaction: MessageContextMenuCommandInteraction, base: InboundBase): Inbound {
  const message = interaction.targetMessage;
  return {
    kind: 'command',
    ...base,
    path: { command: interaction.commandName },
    options: {},
    target: { content: message.content, attachments: [...message.attachments.values()].map(attachmentOf) },
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

// ---- discord.js objects (gateway) ------------------------------------------------------------------------

export function fromGateway(interaction: Interaction): Inbound {
  const member = interaction.member;
  let roles: string[] = [];
  let nick: string | null | undefined;
  if (member instanceof GuildMember) {
    // The role manager lists cached roles and adds @everyone (id = guild id), which is nobody's real role.
    roles = [...member.roles.cache.keys()].filter((id) => id !== interaction.guildId);
    nick = member.nickname;
  } else if (member) {
    roles = [...member.roles];
    nick = member.nick;
  }
  const base: InboundBase = {
    id: interaction.id,
    token: interaction.token,
    applicationId: interaction.applicationId,
    ...(interaction.guildId ? { guildId: interaction.guildId } : {}),
    channelId: interaction.channelId ?? '',
    user: { id: interaction.user.id, name: nick || interaction.user.globalName || interaction.user.username },
    roles,
    rolesKnown: !interaction.guildId || Boolean(member),
    ...(interaction.memberPermissions
      ? { permissions: interaction.memberPermissions.bitfield.toString() }
      : {}),
  };
  if (interaction.isChatInputCommand()) {
    const walked = walkOptions(
      interaction.commandName,
      interaction.options.data as readonly CommandInteractionOption[],
    );
    return {
      kind: 'command',
      ...base,
      path: walked.path,
      options: walked.options,
      ...gatewayFiles(interaction),
    };
  }
  if (interaction.isMessageContextMenuCommand()) return messageCommand(interaction, base);
  if (interaction.isAutocomplete()) {
    const walked = walkOptions(
      interaction.commandName,
      interaction.options.data as readonly CommandInteractionOption[],
    );
    return {
      kind: 'autocomplete',
      ...base,
      path: walked.path,
      focused: walked.focused ?? { name: '', value: '' },
    };
  }
  if (interaction.isButton() || interaction.isStringSelectMenu()) {
    const component = interaction as ButtonInteraction | StringSelectMenuInteraction;
    const title =
      component.message.embeds[0]?.title ??
      titleOfComponents(component.message.components.map((c) => c.toJSON()));
    const clicked = interaction.isButton() ? interaction.component : undefined;
    const label = clicked && 'label' in clicked ? (clicked.label ?? undefined) : undefined;
    return {
      kind: 'component',
      ...base,
      customId: component.customId,
      ...(interaction.isStringSelectMenu() ? { values: [...interaction.values] } : {}),
      message: {
        id: component.message.id,
        flags: component.message.flags.bitfield,
        ...(title ? { title } : {}),
      },
      ...(label ? { label } : {}),
    };
  }
  if (interaction.isModalSubmit()) {
    const modal = interaction as ModalSubmitInteraction;
    const fields: SubmittedFields = {};
    const attachments: Record<string, DiscordAttachment> = {};
    for (const [id, field] of modal.fields.fields) {
      if ('values' in field) fields[id] = { values: [...field.values] };
      else if ('value' in field && typeof field.value === 'string') fields[id] = { value: field.value };
      // A file upload: its attachments' ids are the values, the attachments resolved beside them.
      if ('attachments' in field && field.attachments) {
        for (const [key, a] of field.attachments) attachments[key] = attachmentOf(a);
        fields[id] = { values: [...field.attachments.keys()] };
      }
    }
    return {
      kind: 'modal',
      ...base,
      customId: modal.customId,
      fields,
      ...(Object.keys(attachments).length > 0 ? { attachments } : {}),
      ...(modal.message ? { message: { id: modal.message.id, flags: modal.message.flags.bitfield } } : {}),
    };
  }
  return { kind: 'other', ...base };
}
