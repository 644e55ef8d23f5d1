/**
 * One internal shape for an interaction, whether it arrived over the gateway (a discord.js `Interaction`) or
 * over HTTP (Discord's raw JSON, checked by hand in `inbound/raw-reader.ts`). Everything after the readers is one
 * code path: `inbound/from-raw.ts` reads the HTTP JSON, `inbound/from-gateway.ts` discord.js objects.
 */
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
      message: {
        id: string;
        title?: string;
        flags: number;
        /** The files it holds (a card's chart PNGs, an export), which an edit of it lists to keep. */
        attachments?: { id: string; filename: string }[];
      };
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
