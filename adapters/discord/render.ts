/**
 * The one way the adapter turns the core's cards, confirmations and forms into Discord payloads: interaction
 * answers, follow-ups, modals and the outbox sender's cards and notices all go through here. Commands are
 * named the way members type them on Discord first (command-names.ts), then rendered (components.ts, modal.ts);
 * a test checks that no other module calls the render functions directly, so no path can skip the naming.
 */
import type { Card, CardText, Confirm, Form } from '../../src/core/index.js';
import { CommandNames } from './command-names.js';
import type { CommandRoutes } from './commands.js';
import {
  type CardPayload,
  confirmPayload,
  type EmbedPayload,
  type MessagePayload,
  renderCard,
} from './components.js';
import { renderEmbedCard } from './embeds.js';
import { splitForModal } from './file-input.js';
import { type AdapterMemory, Kept } from './memory.js';
import { type FormPlace, formLauncher, formStep, type LauncherPayload, renderModal } from './modal.js';

export class DiscordRenderer {
  readonly names: CommandNames;

  constructor(
    readonly memory: AdapterMemory,
    routes: CommandRoutes,
  ) {
    this.names = new CommandNames(routes);
  }

  /** A card as a Components V2 message (components.ts). */
  card(card: Card): Promise<CardPayload> {
    return this.#keeping((kept) => renderCard(this.names.card(card), kept));
  }

  /**
   * A card in the shape from before V2 (embeds), for an interaction's update of a message that was posted
   * without the IS_COMPONENTS_V2 flag (embeds.ts says why).
   */
  embedCard(card: Card): Promise<EmbedPayload> {
    return this.#keeping((kept) => renderEmbedCard(this.names.card(card), kept));
  }

  confirm(confirm: Confirm, action: { action: string; value: string }): Promise<CardPayload> {
    return this.#keeping((kept) => confirmPayload(this.names.confirm(confirm), action, kept));
  }

  /** The form as a modal; the stored form (for reading the submission) stays the core's own. */
  modal(form: Form, place: string | FormPlace) {
    return this.#keeping((kept) => renderModal(splitForModal(this.names.form(form)), place, kept));
  }

  /** The answer to one page of a form in pages: kept, and a button opening the next page (modal.ts). */
  step(form: Form, at: FormPlace): LauncherPayload {
    return formStep(this.names.form(form), at);
  }

  /** A message whose button opens the form kept under `key` (after a deferral, or listing its errors). */
  launcher(form: Form, key: string, errors?: Record<string, CardText>): MessagePayload {
    return formLauncher(this.names.form(form), key, errors && this.names.errors(errors));
  }

  /**
   * Renders with a fresh `Kept` and writes what the render kept to the store before the payload is returned:
   * nothing can send a payload whose controls another replica would not find.
   */
  async #keeping<P>(render: (kept: Kept) => P): Promise<P> {
    const kept = new Kept();
    const payload = render(kept);
    await this.memory.save(kept);
    return payload;
  }
}
