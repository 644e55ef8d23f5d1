/**
 * Mentions in settings (`approvers`, `role`) mapped to the addresses the store keeps, and back.
 * Slack sends `<@U123>` / `<@U123|name>` and user groups as `<!subteam^S1|@name>`; Discord sends
 * `<@123>` / `<@!123>` and roles as `<@&R1>`; the playground has plain `@name` and groups as `@&name`.
 * Groups and roles are kept as `slack-group:S1` / `discord-role:R1` / `playground-group:name`, the same references `RequestInfo.memberOf` carries.
 */
import { decodeAddress, userAddress } from '../address.js';
import { userError } from '../context.js';
import type { ChatPlatform, UserAddress } from '../ports.js';
import { err, ok, type Result } from '../result.js';
import { code, mention, parseMention } from '../text.js';

const SLACK_USER = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;
const SLACK_GROUP = /^<!subteam\^([A-Z0-9]+)(?:\|[^>]*)?>$/;
const DISCORD_USER = /^<@!?(\d+)>$/;
const DISCORD_ROLE = /^<@&(\d+)>$/;
const PLAYGROUND_USER = /^<?@([A-Za-z0-9._-]+)>?$/;
const PLAYGROUND_GROUP = /^@&([A-Za-z0-9._-]+)$/;

/**
 * Reads a list of mentions (spaces or commas between them) said by `caller` on its platform.
 * An unreadable word is a user error naming it, so nothing is half-stored.
 */
export function parseMentions(text: string, caller: UserAddress): Result<string[]> {
  const { platform, workspace } = decodeAddress(caller);
  const out: string[] = [];
  // Slack group mentions carry a display name after `|` that may contain spaces: split outside <…> only.
  const words = text.match(/<[^>]*>|[^\s,]+/g) ?? [];
  for (const word of words) {
    const ref = parseOne(word, platform, workspace);
    if (!ref) return err(userError('bad-mention', { value: word, platform }));
    if (!out.includes(ref)) out.push(ref);
  }
  if (out.length === 0) return err(userError('bad-mention', { value: text.trim(), platform }));
  return ok(out);
}

function parseOne(word: string, platform: ChatPlatform, workspace: string): string | undefined {
  if (platform === 'slack') {
    const user = SLACK_USER.exec(word)?.[1];
    if (user) return userAddress('slack', workspace, user);
    const group = SLACK_GROUP.exec(word)?.[1];
    if (group) return `slack-group:${group}`;
  } else if (platform === 'discord') {
    const role = DISCORD_ROLE.exec(word)?.[1];
    if (role) return `discord-role:${role}`;
    const user = DISCORD_USER.exec(word)?.[1];
    if (user) return userAddress('discord', workspace, user);
  } else {
    const group = PLAYGROUND_GROUP.exec(word)?.[1];
    if (group) return `playground-group:${group}`;
    const user = PLAYGROUND_USER.exec(word)?.[1];
    if (user) return userAddress('playground', workspace, user);
  }
  return undefined;
}

/**
 * How a stored reference reads in a card: a mention token (text.ts) that each adapter renders natively.
 * The core never writes platform syntax itself, so adapters can tell its mentions from user text.
 */
export function formatMention(ref: string): string {
  return parseMention(ref) ? mention(ref) : code(ref);
}

/** `everyone` for an empty list (no restriction), else the mentions. */
export const formatMentions = (refs: readonly string[], empty = 'everyone'): string =>
  refs.length === 0 ? empty : refs.map(formatMention).join(', ');

/** Whether the caller is one of `refs`, directly or through a group/role it holds. */
export const isAmong = (
  refs: readonly string[],
  user: UserAddress,
  memberOf: readonly string[] = [],
): boolean => refs.includes(user) || memberOf.some((g) => refs.includes(g));
