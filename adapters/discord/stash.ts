/**
 * A small bounded memory with expiry, for what a 100-character `custom_id` cannot carry (a form's inputs, a
 * confirmation's wording). Losing it on restart is acceptable: every reader has a fallback.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../src/core/ports.js';

export class Stash<T> {
  readonly #entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly capacity = 2_000,
  ) {}

  /** Stores under a fresh random key; returns it. */
  add(value: T): string {
    const key = randomBytes(9).toString('base64url');
    this.set(key, value);
    return key;
  }

  set(key: string, value: T): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.clock.now() + this.ttlMs });
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
}
