/**
 * What each API scope lets the bot do, so `link` and `whoami` can say which commands a key cannot run
 * before the user meets a 403.
 */

import { type CardText, code, command, commandName, joinText, literal, md } from '../text/text.js';
import { SCOPES } from '../video-api/video-api.js';

const USES: Record<string, CardText> = {
  'credits:read': commandName('credits'),
  'videos:read': md`${commandName('videos')}, ${commandName('show')}, ${commandName('status')}`,
  'videos:write': md`${commandName('create')}, ${commandName('caption')}, ${commandName('render')}, ${commandName('meta')}, ${commandName('rename')}, ${commandName('delete')}`,
  'series:read': md`${commandName('series list')}, ${commandName('series show')}, ${commandName('series episodes')}`,
  'series:write': md`${commandName('series create')}, ${commandName('series edit')}, ${commandName('series generate')}`,
  'posts:read': md`${commandName('calendar')}, ${command('subscribe', ['calendar'])}`,
  'posts:write': md`${commandName('publish')}, ${commandName('schedule')}, ${commandName('unschedule')}`,
  'accounts:read': commandName('accounts'),
  'catalog:read': md`${commandName('voices')}, ${commandName('options')}`,
  'assets:write': commandName('asset'),
  'analytics:read': commandName('analytics'),
};

/** `all 11 scopes` or the list, in the spec's order. */
export function formatScopes(scopes: readonly string[]): CardText {
  if (SCOPES.every((s) => scopes.includes(s))) return md`all ${SCOPES.length} scopes`;
  if (scopes.length === 0) return md`none`;
  return joinText(
    scopes.map((s) => code(s)),
    ', ',
  );
}

/** One line per documented scope the key lacks, naming the commands that will refuse. */
export function missingScopes(scopes: readonly string[]): CardText[] {
  return SCOPES.filter((s) => !scopes.includes(s)).map(
    (s) => md`\`${literal(s)}\` — ${USES[s] ?? md`some commands`} will not work`,
  );
}
