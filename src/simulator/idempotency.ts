import { conflict, invalidInput } from './errors.js';
import { DAY } from './vocabulary.js';

export interface StoredResponse {
  status: number;
  body: string;
}

interface Entry {
  fingerprint: string;
  response: StoredResponse;
  storedAt: number;
}

/** What a replay is matched on: the caller's API key, its Idempotency-Key, and the request's fingerprint. */
export interface IdempotentRequest {
  apiKey: string;
  idemKey: string;
  /** from `IdempotencyStore.fingerprint` */
  fingerprint: string;
}

/** Replay window of spec §7/§8 (clock time, not accelerated: it is about client retries, not job speed). */
const REPLAY_WINDOW_MS = DAY;

/**
 * Stored successful responses of (idem) endpoints, scoped per API key. The fingerprint is the method,
 * path and canonical JSON body, so the same key sent to another endpoint or with another body is a 409.
 */
export class IdempotencyStore {
  #entries = new Map<string, Entry>();

  static validateKey(header: string | string[] | undefined): string | undefined {
    if (header === undefined) return undefined;
    const value = Array.isArray(header) ? header.join(',') : header;
    if (value.trim() === '') throw invalidInput('Idempotency-Key: must not be empty');
    if (value.length > 255) throw invalidInput('Idempotency-Key: must be at most 255 characters');
    return value;
  }

  static fingerprint(method: string, path: string, body: unknown): string {
    return `${method} ${path} ${canonicalJson(body)}`;
  }

  /** The stored response to replay, undefined to run the operation, or 409 when the key was used differently. */
  lookup({ apiKey, idemKey, fingerprint }: IdempotentRequest, now: number): StoredResponse | undefined {
    const id = entryId(apiKey, idemKey);
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (now - entry.storedAt >= REPLAY_WINDOW_MS) {
      this.#entries.delete(id);
      return undefined;
    }
    if (entry.fingerprint !== fingerprint) {
      throw conflict(`Idempotency-Key '${idemKey}' was already used with a different request`);
    }
    return entry.response;
  }

  store({ apiKey, idemKey, fingerprint }: IdempotentRequest, response: StoredResponse, now: number): void {
    this.#entries.set(entryId(apiKey, idemKey), { fingerprint, response, storedAt: now });
  }
}

/** Keys are scoped per API key: the same Idempotency-Key from two keys is two entries. */
const entryId = (apiKey: string, idemKey: string): string => `${apiKey}\u0000${idemKey}`;

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
