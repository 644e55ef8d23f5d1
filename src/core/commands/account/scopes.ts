/**
 * What each API scope lets the bot do, so `link` and `whoami` can say which commands a key cannot run
 * before the user meets a 403.
 */

import { code } from '../../text.js';
import { SCOPES } from '../../video-api.js';

const USES: Record<string, string> = {
  'credits:read': '`credits`',
  'videos:read': '`videos`, `show`, `status`',
  'videos:write': '`create`, `caption`, `render`, `meta`, `rename`, `delete`',
  'series:read': '`series list`, `series show`, `series episodes`',
  'series:write': '`series create`, `series edit`, `series generate`',
  'posts:read': '`calendar`, `subscribe calendar`',
  'posts:write': '`publish`, `schedule`, `unschedule`',
  'accounts:read': '`accounts`',
  'catalog:read': '`voices`, `options`',
  'assets:write': '`asset`',
  'analytics:read': '`analytics`',
};

/** `all 11 scopes` or the list, in the spec's order. */
export function formatScopes(scopes: readonly string[]): string {
  if (SCOPES.every((s) => scopes.includes(s))) return `all ${SCOPES.length} scopes`;
  if (scopes.length === 0) return 'none';
  return scopes.map((s) => code(s)).join(', ');
}

/** One line per documented scope the key lacks, naming the commands that will refuse. */
export function missingScopes(scopes: readonly string[]): string[] {
  return SCOPES.filter((s) => !scopes.includes(s)).map(
    (s) => `\`${s}\` — ${USES[s] ?? 'some commands'} will not work`,
  );
}
