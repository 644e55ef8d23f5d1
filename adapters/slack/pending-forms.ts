import { randomUUID } from 'node:crypto';
import type { Form } from '../../src/core/cards.js';
import type { Clock } from '../../src/core/ports.js';
import type { Replay } from './present.js';

/** Forms waiting behind an "Open form" button: as long as a response_url lives. */
const PENDING_TTL_MS = 30 * 60_000;
const PENDING_MAX = 1_000;

/** Forms offered behind an "Open form" button, kept a while under a random id (named by the button's value). */
export class PendingForms {
  private readonly pending = new Map<string, { form: Form; until: number }>();

  constructor(private readonly clock: Clock) {}

  /** Keeps `form` and returns its id; the oldest or expired forms make room. */
  add(form: Form): string {
    const id = randomUUID();
    this.pending.set(id, { form, until: this.clock.now() + PENDING_TTL_MS });
    for (const [key, entry] of this.pending) {
      if (this.pending.size <= PENDING_MAX && entry.until > this.clock.now()) break;
      this.pending.delete(key);
    }
    return id;
  }

  /** The form an "Open form" button stands for, by its value (and the replay it carries). */
  fromButton(value: string): { form?: Form; replay?: Replay } {
    try {
      const parsed = JSON.parse(value) as { f?: string; r?: Replay };
      const entry = parsed.f ? this.pending.get(parsed.f) : undefined;
      return {
        ...(entry && entry.until > this.clock.now() ? { form: entry.form } : {}),
        ...(parsed.r ? { replay: parsed.r } : {}),
      };
    } catch {
      return {};
    }
  }
}
