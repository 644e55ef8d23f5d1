/**
 * The chat ports: the platforms reelbot speaks and their opaque addresses, what a platform adapter offers the
 * core (`ChatAdapter`, its capabilities and the outbox's `ChatSender`), and what an adapter may set on a
 * request for the core to call back (`FileLinks`, `ConversationMembership`). Implemented by `adapters/*`.
 */
import type { Card } from '../text/cards.js';

/** Chat platforms reelbot speaks. */
export type ChatPlatform = 'slack' | 'discord' | 'playground';

/**
 * Opaque addresses, encoded once by `./address.ts`:
 * user `slack:T1:U1`, conversation `slack:T1:C1`, message `slack:T1:C1:1700000000.000100`.
 */
export type UserAddress = string;
export type ConversationAddress = string;
export type MessageAddress = string;

/** A chat delivery failed; `retryAfter` (seconds) when the platform rate-limited us. */
export class ChatDeliveryError extends Error {
  override readonly name = 'ChatDeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * What the outbox sender needs from a chat platform: post and edit long-lived cards with the bot token
 * (DESIGN §4: interaction tokens expire). Implemented by each adapter.
 */
export interface ChatSender {
  readonly platform: ChatPlatform;
  /**
   * Posts a card; returns its message address. `dedupeId` is stable across retries of the same outbox row,
   * so an adapter that can (Discord nonce, Slack metadata lookup) avoids double posts after a crash.
   */
  post(
    conversation: ConversationAddress,
    card: Card,
    options: { threadOf?: MessageAddress; dedupeId: string },
  ): Promise<MessageAddress>;
  update(message: MessageAddress, card: Card): Promise<void>;
  /** A short private notice to one user (e.g. "your approval expired"); may fall back to a DM. */
  notify?(user: UserAddress, conversation: ConversationAddress, card: Card): Promise<void>;
  /**
   * A direct message to one user (a ping moved there with `notify --dm`), for platforms whose `notify` is not
   * one already (Slack's ephemeral message notifies no one); others leave it out and `notify` is used.
   */
  direct?(user: UserAddress, conversation: ConversationAddress, card: Card): Promise<void>;
  /** Publishes `user`'s dashboard again (Slack App Home); platforms without one leave it out. */
  refreshHome?(user: UserAddress): Promise<void>;
}

/**
 * What a chat platform can show, so the core and the adapters' renderers read one declaration instead of
 * testing the platform's name (vercel/chat's adapter capabilities, in spirit).
 */
export interface ChatCapabilities {
  /** Forms open as a dialog (Slack views, Discord modals, the playground's form). */
  modals: boolean;
  /** Answers only the asker sees. */
  ephemeral: boolean;
  /** Replies grouped under a message. */
  threads: boolean;
  /** Files can be uploaded with a message. */
  files: boolean;
  /** Option values are suggested while typing (Discord autocomplete). */
  autocomplete: boolean;
  /** Several images in one message as a gallery (Discord Components V2). */
  mediaGallery: boolean;
  /** Longest value a text input of a form takes (characters). */
  maxInputLength: number;
  /**
   * Longest typed command (or typed option value) the platform delivers whole, when that is less than a
   * field's own limit; the adapter answers a longer one through `Bot.handleTooLong`. Absent: no such cap.
   */
  maxCommandLength?: number;
  /**
   * The platform tells each member's time zone (Slack `users.info`, the playground's browser). Without it
   * (Discord) the core asks a member who has set none before reading times in theirs (RequestInfo).
   */
  sharesTimeZones: boolean;
  /** What members call a workspace of the platform, in sentences: "workspace" (Slack), "server" (Discord). */
  workspaceNoun: string;
  /**
   * What members call a group they can be mentioned as, in sentences ("user group", "role"); absent where a
   * member mentions only people.
   */
  groupNoun?: string;
  /**
   * Direct messages sit outside every workspace, under `DM_WORKSPACE` (Discord's `@me`): a member has one id
   * in every workspace and in DMs, and a DM's rules are the strictest of the workspaces' (workspace-policy.ts).
   */
  workspacelessDms: boolean;
}

/**
 * One chat platform behind the core: Slack, Discord and the playground implement it, each in an
 * adapter folder with the same files (index.ts factory, inbound.ts, render.ts, text.ts, sender.ts).
 * `src/adapters.ts` creates the configured ones, mounts their routes, then starts them and hands their
 * senders to the outbox.
 */
export interface ChatAdapter {
  readonly name: ChatPlatform;
  readonly capabilities: ChatCapabilities;
  /** What the outbox posts and edits long-lived cards with. */
  readonly sender: ChatSender;
  /** Opens outbound connections (Socket Mode, gateway, command registration); after the server listens. */
  start(): Promise<void>;
  /** Stops what `start` opened; safe without a `start`. */
  stop(): Promise<void>;
}

/** A text file once read: its name (for messages) and its text. */
export interface TextFile {
  name: string;
  text: string;
}

/**
 * Reads a file shared in the conversation by its link (a Slack file permalink, a Discord attachment
 * URL, a playground upload), checked like a form's upload (`readTextFile` in long-text.ts). Throws the `file-*`
 * user errors. Set on the request (`RequestInfo.files`) by the adapters that can, never serialised with it:
 * the core never fetches a URL itself.
 */
export interface FileLinks {
  read(link: string, check: { accept: readonly string[]; maxLength: number }): Promise<TextFile>;
}

/**
 * Asks the platform whether the requesting member is in a conversation (the dashboard shows and
 * stops a channel's subscriptions only for its members). Set on the request by the adapters that can; a
 * platform that cannot tell answers undefined, which counts as "not a member" (fail closed).
 */
export interface ConversationMembership {
  isMember(conversation: ConversationAddress): Promise<boolean | undefined>;
}

/**
 * Asks the platform whether the bot can post in a channel named in the request (`settings alerts`): true,
 * false, `other-workspace` when the platform says the channel belongs to another workspace than the one its
 * address was built in, or undefined when it cannot tell now, which the core refuses (fail closed). Set by the
 * adapters.
 */
export interface ChannelAccess {
  botCanPost(conversation: ConversationAddress): Promise<boolean | 'other-workspace' | undefined>;
}
