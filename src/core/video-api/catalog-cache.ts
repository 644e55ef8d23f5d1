/**
 * Catalogs (voices, options, accounts, models) change rarely; they are cached per team key for a few
 * minutes so `create` can show costs and Discord autocomplete answers instantly.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../ports/index.js';
import type { Accounts, OptionCatalog, OptionKind, VideoApi, Voice } from './video-api.js';

const TTL_MS = 5 * 60_000;

interface Entry {
  at: number;
  value: Promise<unknown>;
}

export class CatalogCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = TTL_MS,
  ) {}

  voices(api: VideoApi, keyId: string): Promise<Voice[]> {
    return this.cached(`${keyId}:voices`, () => api.voices.list());
  }

  options(api: VideoApi, keyId: string, kind: OptionKind): Promise<OptionCatalog> {
    return this.cached(`${keyId}:options:${kind}`, () => api.options.get(kind));
  }

  accounts(api: VideoApi, keyId: string): Promise<Accounts> {
    return this.cached(`${keyId}:accounts`, () => api.accounts.list());
  }

  /** Credits per model, from `GET /options?kind=models`. */
  async modelCost(api: VideoApi, keyId: string, model: string): Promise<number | undefined> {
    const catalog = await this.options(api, keyId, 'models');
    return catalog.items.find((i) => i.value === model)?.credits;
  }

  /**
   * Something else read with the key that is worth keeping for a while (`ttlMs`), such as the team's post
   * history behind `schedule … best`; `name` tells the kinds apart.
   */
  remember<T>(keyId: string, what: { name: string; ttlMs: number }, load: () => Promise<T>): Promise<T> {
    return this.cached(`${keyId}:${what.name}`, load, what.ttlMs);
  }

  /** Forget everything for one key (e.g. after unlink). */
  forget(keyId: string): void {
    for (const k of this.entries.keys()) if (k.startsWith(`${keyId}:`)) this.entries.delete(k);
  }

  private cached<T>(key: string, load: () => Promise<T>, ttlMs = this.ttlMs): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && this.clock.now() - hit.at < ttlMs) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { at: this.clock.now(), value });
    // A failed load is not cached: the next call tries again.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

/** A stable, non-secret id for an API key (cache keys, metrics); the key itself is never kept. */
export const keyId = (apiKey: string): string =>
  createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
