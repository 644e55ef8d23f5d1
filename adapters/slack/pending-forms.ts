import { randomUUID } from 'node:crypto';
import type { Form, Store } from '../../src/core/index.js';
import type { Replay } from './present.js';

/** Forms waiting behind an "Open form" button: as long as a response_url lives. */
const PENDING_TTL_MS = 30 * 60_000;

const keyOf = (id: string) => `slack:form:${id}`;

/**
 * Forms offered behind an "Open form" button, kept a while under a random id (named by the button's value). They
 * live in the store (`Store.interactions`): the click may reach another replica than the one that
 * offered the form.
 */
export class PendingForms {
  constructor(private readonly store: Store['interactions']) {}

  /** Keeps `form` and returns its id. */
  async add(form: Form): Promise<string> {
    const id = randomUUID();
    await this.store.put([{ key: keyOf(id), value: form, ttlMs: PENDING_TTL_MS }]);
    return id;
  }

  /** The form an "Open form" button stands for, by its value (and the replay it carries). */
  async fromButton(value: string): Promise<{ form?: Form; replay?: Replay }> {
    let parsed: { f?: unknown; r?: Replay };
    try {
      parsed = JSON.parse(value) as { f?: unknown; r?: Replay };
    } catch {
      return {};
    }
    const form = typeof parsed.f === 'string' ? await this.store.get<Form>(keyOf(parsed.f)) : undefined;
    return {
      ...(form ? { form } : {}),
      ...(parsed.r ? { replay: parsed.r } : {}),
    };
  }
}
