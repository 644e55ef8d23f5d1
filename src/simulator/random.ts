/**
 * Deterministic pseudo-random numbers (mulberry32) so a fixed `randomSeed` reproduces ids and failures.
 * Several independent streams are derived from one seed so that, say, turning a failure rate on does not
 * shift the ids handed out afterwards.
 */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with the given probability; always draws, so the stream advances identically whatever the rate. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.int(0, 0xffff).toString(16).padStart(4, '0');
    return out.slice(0, length);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick() from an empty list');
    return item;
  }
}

export interface RandomStreams {
  /** ids of every record */
  ids: Prng;
  /** failure draws (generation, render, post, thumbnail, 5xx) */
  failures: Prng;
  /** cosmetic content: scores, view counts, hook texts */
  content: Prng;
  /** the `real` profile's noise (progress stalls, warnings, thumbnail delays) and payment failures */
  noise: Prng;
}

export function createStreams(seed: number): RandomStreams {
  return {
    ids: new Prng(seed),
    failures: new Prng(seed ^ 0x5bd1e995),
    content: new Prng(seed ^ 0x27d4eb2f),
    noise: new Prng(seed ^ 0x165667b1),
  };
}

/** Mongo-like object id: 8 hex chars of seconds since the epoch + 16 random hex chars. */
export function objectId(nowMs: number, rng: Prng): string {
  const seconds = Math.floor(nowMs / 1000) >>> 0;
  return seconds.toString(16).padStart(8, '0') + rng.hex(16);
}

export const OBJECT_ID = /^[0-9a-f]{24}$/;
