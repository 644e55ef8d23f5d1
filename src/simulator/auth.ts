import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, unauthorized } from './errors.js';
import type { KeyRec, Store } from './records.js';
import type { Scope } from './vocabulary.js';

/** Reads the key from `Authorization: Bearer <key>` or `X-API-Key: <key>` (spec §5); throws 401 otherwise. */
export function extractKey(headers: IncomingHttpHeaders): string {
  const authorization = headers.authorization;
  const apiKeyHeader = headers['x-api-key'];
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized("Malformed Authorization header: expected 'Bearer <API key>'");
    return match[1];
  }
  if (typeof apiKeyHeader === 'string') {
    const key = apiKeyHeader.trim();
    if (key === '' || /\s/.test(key)) throw unauthorized('Malformed X-API-Key header');
    return key;
  }
  throw unauthorized('Missing API key: send Authorization: Bearer <API key> or X-API-Key: <API key>');
}

export function authenticate(store: Store, headers: IncomingHttpHeaders): KeyRec {
  const key = store.keys.get(extractKey(headers));
  // One message for unknown and revoked keys, and never the key itself.
  if (!key || key.revoked) throw unauthorized('Invalid or revoked API key');
  return key;
}

export function requireScope(key: KeyRec, scope: Scope | null): void {
  if (scope === null || key.scopes.includes(scope)) return;
  throw new ApiError('forbidden_scope', `This API key lacks the required scope '${scope}'`);
}

/** What logs may show of a key. */
export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}
