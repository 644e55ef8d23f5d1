/** discord.js interactions (the gateway) read into an `Inbound`, one reader per interaction kind. */
import {
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  GuildMember,
  type Interaction,
  type MessageContextMenuCommandInteraction,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import { titleOfComponents } from '../components.js';
import type { DiscordAttachment } from '../file-input.js';
import type { Inbound, InboundBase } from '../inbound.js';
import type { SubmittedFields } from '../modal.js';
import { walkOptions } from './options.js';

export function fromGateway(interaction: Interaction): Inbound {
  const base = baseOf(interaction);
  if (interaction.isChatInputCommand()) return chatInputCommand(interaction, base);
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
  if (interaction.isButton() || interaction.isStringSelectMenu()) return componentOf(interaction, base);
  if (interaction.isModalSubmit()) return modalOf(interaction, base);
  return { kind: 'other', ...base };
}

/** Who acted where: the member's roles and nickname, in a guild. */
function baseOf(interaction: Interaction): InboundBase {
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
  return {
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
}

/** `/reel …`: its path, options and attached files. */
function chatInputCommand(interaction: ChatInputCommandInteraction, base: InboundBase): Inbound {
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

/** A button or select on a card: the card's title and the clicked button's label come along. */
function componentOf(component: ButtonInteraction | StringSelectMenuInteraction, base: InboundBase): Inbound {
  const title =
    component.message.embeds[0]?.title ??
    titleOfComponents(component.message.components.map((c) => c.toJSON()));
  const clicked = component.isButton() ? component.component : undefined;
  const label = clicked && 'label' in clicked ? (clicked.label ?? undefined) : undefined;
  return {
    kind: 'component',
    ...base,
    customId: component.customId,
    ...(component.isStringSelectMenu() ? { values: [...component.values] } : {}),
    message: {
      id: component.message.id,
      flags: component.message.flags.bitfield,
      ...(title ? { title } : {}),
      ...(component.message.attachments.size > 0
        ? { attachments: component.message.attachments.map((a) => ({ id: a.id, filename: a.name })) }
        : {}),
    },
    ...(label ? { label } : {}),
  };
}

/** A submitted form: its fields by custom id, and the files uploaded in it. */
function modalOf(modal: ModalSubmitInteraction, base: InboundBase): Inbound {
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
