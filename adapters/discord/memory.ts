/**
 * What the adapter remembers between an interaction and the next click: forms it showed (to read a
 * submission, reopen it prefilled, or open it from a button), the values of a form in pages submitted so far
 * (under the form's key), confirmation wording, where an "are you sure?" was asked from, and the rare action or
 * option value too long for Discord's 100 characters. Memory only: after a restart a click on such a control
 * gets the core's "expired" answer, and a confirmation falls back to the clicked message's own words.
 */
import type { Confirm, Form } from '../../src/core/cards.js';
import type { Clock } from '../../src/core/ports.js';
import type { KeptAction, RenderMemory } from './components.js';
import { Stash } from './stash.js';

const HOUR = 3_600_000;
const VALUE_PREFIX = '~';

/** The interaction whose button asked "are you sure?": its webhook edits the card that carried the button. */
export interface AskedFrom {
  applicationId: string;
  token: string;
}

export class AdapterMemory implements RenderMemory {
  readonly forms: Stash<Form>;
  /** The values of the pages submitted so far of a form in pages, under the form's key. */
  readonly formValues: Stash<Record<string, string>>;
  readonly #actions: Stash<KeptAction>;
  readonly #confirms: Stash<Confirm>;
  readonly #values: Stash<string>;
  readonly #asked: Stash<AskedFrom>;

  constructor(clock: Clock) {
    this.forms = new Stash<Form>(clock, HOUR);
    this.formValues = new Stash<Record<string, string>>(clock, HOUR);
    this.#actions = new Stash<KeptAction>(clock, 24 * HOUR);
    this.#confirms = new Stash<Confirm>(clock, 24 * HOUR, 5_000);
    this.#values = new Stash<string>(clock, 24 * HOUR);
    // An interaction's token lasts 15 minutes.
    this.#asked = new Stash<AskedFrom>(clock, 15 * 60_000);
  }

  /** Notes that the button running `action` with `value` asked first, from the interaction `from`. */
  keepAsked(action: string, value: string, from: AskedFrom): void {
    this.#asked.set(`${action}|${value}`, from);
  }

  /** Where the question for `action` with `value` was asked from, once (the card is edited once). */
  takeAsked(action: string, value: string): AskedFrom | undefined {
    const key = `${action}|${value}`;
    const from = this.#asked.get(key);
    this.#asked.delete(key);
    return from;
  }

  keepAction(entry: KeptAction): string {
    return this.#actions.add(entry);
  }

  action(key: string): KeptAction | undefined {
    return this.#actions.get(key);
  }

  keepConfirm(action: string, value: string, confirm: Confirm): void {
    this.#confirms.set(`${action}|${value}`, confirm);
  }

  confirm(action: string, value: string): Confirm | undefined {
    return this.#confirms.get(`${action}|${value}`);
  }

  keepValue(value: string): string {
    return `${VALUE_PREFIX}${this.#values.add(value)}`;
  }

  /** The original of a stand-in made by `keepValue`; anything else unchanged. */
  restoreValue(value: string): string {
    if (!value.startsWith(VALUE_PREFIX)) return value;
    return this.#values.get(value.slice(VALUE_PREFIX.length)) ?? value;
  }
}
