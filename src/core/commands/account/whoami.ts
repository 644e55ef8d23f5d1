/** `whoami`: which team and key the caller's commands run under (prefix only, never the key). */

import { userError } from '../../dispatch/context.js';
import { formatScopes, missingScopes } from '../../format/scopes.js';
import { defineCommand } from '../../parse/command-spec.js';
import { type LinkedKey, StoredKeyUnreadableError } from '../../ports/index.js';
import type { Field } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { code, command, joinText, literal, md } from '../../text/text.js';
import { formatDateTime } from '../../time/format.js';
import { safePrefix } from './link.js';

export const whoamiCommand = defineCommand({
  name: 'whoami',
  summary: 'Show the team, plan, credits and scopes your commands run under',
  options: [],
  examples: ['whoami'],
  async run(ctx) {
    let linked: LinkedKey | undefined;
    try {
      linked = await ctx.deps.store.keys.get(ctx.req.user);
    } catch (error) {
      if (error instanceof StoredKeyUnreadableError) throw userError('key-unreadable');
      throw error;
    }
    const api = await ctx.api();
    const me = await api.me.get();
    const prefix = linked ? linked.keyPrefix : safePrefix(ctx.deps.deploymentKey ?? '', me.auth.keyPrefix);
    const source = linked
      ? md`Your own link (since ${formatDateTime(linked.linkedAt, await ctx.timeZone())})`
      : md`This workspace's shared key (\`VIDEO_API_KEY\`); ${command('link')} to use your own`;
    // The service's team id when it gives one; a key fingerprint is no team id, so it is not shown.
    const teamId = me.team.id;
    const fields: Field[] = [
      {
        label: md`Team`,
        value: teamId ? md`${literal(me.team.name)} (${code(teamId)})` : literal(me.team.name),
        short: true,
      },
      ...(me.plan !== undefined ? [{ label: md`Plan`, value: literal(me.plan), short: true }] : []),
      { label: md`Credits`, value: md`${me.team.credits}`, short: true },
      {
        label: md`Key`,
        value: md`\`${literal(prefix)}…\`${me.auth.legacy ? md` (legacy key)` : md``}`,
        short: true,
      },
      { label: md`Key source`, value: source },
      { label: md`Scopes`, value: me.auth.scopes ? formatScopes(me.auth.scopes) : md`not reported` },
    ];
    const missing = me.auth.scopes ? missingScopes(me.auth.scopes) : [];
    return message({
      title: md`You act as ${literal(me.team.name)}`,
      tone: missing.length > 0 ? 'warning' : 'info',
      ...(missing.length > 0
        ? {
            text: md`**Missing scopes:**\n${joinText(
              missing.map((m) => md`• ${m}`),
              '\n',
            )}`,
          }
        : {}),
      fields,
      ...(me.auth.via !== undefined ? { context: md`Authenticated via ${literal(me.auth.via)}` } : {}),
    });
  },
});
