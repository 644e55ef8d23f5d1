/**
 * What the adapter remembers between an interaction and the next click: forms it showed (to read a
 * submission, reopen it prefilled, or open it from a button), the values of a form in pages submitted so far
 * (under the form's key), confirmation wording, where an "are you sure?" was asked from, and the rare action or
 * option value too long for Discord's 100 characters. All of it lives in the store (`Store.interactions`, issue
 * 28), so whichever replica receives the next interaction reads it; nothing is cached in this process. Once an
 * entry has expired a click on its control gets the core's "expired" answer, and a confirmation falls back to
 * the clicked message's own words.
 *
 * Rendering stays synchronous: a render keeps what its controls need in a `Kept` (the `RenderMemory` the
 * renderer is given), and `save` writes it before the payload is sent (render.ts), so a fast click on another
 * replica finds it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Confirm, Form } from '../../src/core/cards.js';
import type { InteractionEntry, Store } from '../../src/core/ports.js';
import type { KeptAction, RenderMemory } from './components.js';

const HOUR = 3_600_000;
const TTL = {
  form: HOUR,
  pages: HOUR,
  action: 24 * HOUR,
  confirm: 24 * HOUR,
  value: 24 * HOUR,
  // An interaction's token lasts 15 minutes.
  asked: 15 * 60_000,
} as const;
const VALUE_PREFIX = '~';

/** Keys in the store, by what they hold: the adapter's own namespace. */
const KEY = {
  form: (key: string) => `discord:form:${key}`,
  pages: (key: string) => `discord:pages:${key}`,
  action: (key: string) => `discord:action:${key}`,
  confirm: (action: string, value: string) => `discord:confirm:${action}|${value}`,
  value: (key: string) => `discord:value:${key}`,
  asked: (action: string, value: string) => `discord:asked:${action}|${value}`,
};

const newKey = () => randomBytes(9).toString('base64url');
/**
 * The key of a kept action or value is its digest: a card rendered again (every progress update) keeps the same
 * row instead of adding one, and every replica renders the same custom id for it.
 */
const digestKey = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 12);

/** The interaction whose button asked "are you sure?": its webhook edits the card that carried the button. */
export interface AskedFrom {
  applicationId: string;
  token: string;
}

/** What one render keeps for its controls, written to the store (`AdapterMemory.save`) before it is sent. */
export class Kept implements RenderMemory {
  readonly entries: InteractionEntry[] = [];
  /** Keys given out by this render: the same action or value twice on one message gets two (ids are unique). */
  readonly #given = new Set<string>();

  keepAction(entry: KeptAction): string {
    const key = this.#keyOf(entry);
    this.entries.push({ key: KEY.action(key), value: entry, ttlMs: TTL.action });
    return key;
  }

  keepConfirm(action: string, value: string, confirm: Confirm): void {
    this.entries.push({ key: KEY.confirm(action, value), value: confirm, ttlMs: TTL.confirm });
  }

  keepValue(value: string): string {
    const key = this.#keyOf(value);
    this.entries.push({ key: KEY.value(key), value, ttlMs: TTL.value });
    return `${VALUE_PREFIX}${key}`;
  }

  #keyOf(value: unknown): string {
    let key = digestKey(value);
    for (let n = 2; this.#given.has(key); n++) key = digestKey([value, n]);
    this.#given.add(key);
    return key;
  }
}

export class AdapterMemory {
  constructor(private readonly store: Store['interactions']) {}

  /** Writes what a render kept; awaited before its payload leaves. */
  async save(kept: Kept): Promise<void> {
    if (kept.entries.length > 0) await this.store.put(kept.entries);
  }

  /** Keeps `form` under `key` (a fresh one by default, returned). */
  async keepForm(form: Form, key = newKey()): Promise<string> {
    await this.store.put([{ key: KEY.form(key), value: form, ttlMs: TTL.form }]);
    return key;
  }

  form(key: string): Promise<Form | undefined> {
    return this.store.get<Form>(KEY.form(key));
  }

  /**
   * Keeps the values of the pages submitted so far of a form in pages, and the form, under the form's key. A
   * secret typed on an earlier page (an API key) is sealed at rest with them.
   */
  async keepPages(key: string, form: Form, values: Record<string, string>): Promise<void> {
    const sealed = form.inputs.some((input) => input.kind === 'text' && input.secret);
    await this.store.put([
      { key: KEY.pages(key), value: values, ttlMs: TTL.pages, sealed },
      { key: KEY.form(key), value: form, ttlMs: TTL.form },
    ]);
  }

  /** The values of the pages submitted so far of the form under `key`. */
  pages(key: string): Promise<Record<string, string> | undefined> {
    return this.store.get<Record<string, string>>(KEY.pages(key));
  }

  /**
   * Notes that the button running `action` with `value` asked first, from the interaction `from`. Its token can
   * edit that interaction's messages for 15 minutes: it is sealed at rest (src/store/tables/interactions.ts).
   */
  async keepAsked(action: string, value: string, from: AskedFrom): Promise<void> {
    await this.store.put([{ key: KEY.asked(action, value), value: from, ttlMs: TTL.asked, sealed: true }]);
  }

  /** Where the question for `action` with `value` was asked from, once (the card is edited once). */
  takeAsked(action: string, value: string): Promise<AskedFrom | undefined> {
    return this.store.take<AskedFrom>(KEY.asked(action, value));
  }

  action(key: string): Promise<KeptAction | undefined> {
    return this.store.get<KeptAction>(KEY.action(key));
  }

  confirm(action: string, value: string): Promise<Confirm | undefined> {
    return this.store.get<Confirm>(KEY.confirm(action, value));
  }

  /** The original of a stand-in made by `keepValue`; anything else (or an expired stand-in) unchanged. */
  async restoreValue(value: string): Promise<string> {
    if (!value.startsWith(VALUE_PREFIX)) return value;
    return (await this.store.get<string>(KEY.value(value.slice(VALUE_PREFIX.length)))) ?? value;
  }

  /** Restores every stand-in among `values` at once: a synchronous lookup for reading a submission. */
  async restorer(values: readonly string[]): Promise<(value: string) => string> {
    const standIns = [...new Set(values.filter((v) => v.startsWith(VALUE_PREFIX)))];
    const restored = new Map(
      await Promise.all(standIns.map(async (v) => [v, await this.restoreValue(v)] as const)),
    );
    return (value) => restored.get(value) ?? value;
  }
}
