/** What every step of answering an interaction shares, built once by `createInteractionHandler`. */
import type { REST } from 'discord.js';
import type { Bot, Clock, Form, Logger } from '../../../src/core/index.js';
import type { AckGate } from '../../../src/http/ack-gate.js';
import type { CommandRoutes } from '../commands.js';
import type { Inbound } from '../inbound.js';
import type { AdapterMemory } from '../memory.js';
import type { DiscordRenderer } from '../render.js';

export interface InteractionContext {
  bot: Bot;
  /** Sends follow-ups and edits through the interaction's webhook (no bot token needed). */
  rest: REST;
  routes: CommandRoutes;
  memory: AdapterMemory;
  /** Times the deferral and autocomplete deadlines. */
  clock: Clock;
  log: Logger;
  /** Acknowledgements pending: work that acknowledges first starts once the others are acknowledged. */
  acks: AckGate;
  /** Every payload is rendered here, commands named as on Discord (render.ts). */
  render: DiscordRenderer;
  /** How long to wait for the core before deferring; 0 always defers. */
  deferAfterMs: number;
  /** Autocomplete answers nothing after this long. */
  autocompleteTimeoutMs: number;
}

/** One kind of interaction. */
export type InboundOf<K extends Inbound['kind']> = Extract<Inbound, { kind: K }>;

/** Where an answer can go: a new reply, or (for clicks on a message) an edit of that message. */
export type Source = 'reply' | 'message';

/** A submitted form with its values: offered again, filled in, when the core answers with inline errors. */
export interface Submitted {
  form?: Form;
  values: Record<string, string>;
}

/** How an interaction may be answered. */
export interface Answering {
  source: Source;
  canShowModal: boolean;
  errorsOf?: Submitted;
}
