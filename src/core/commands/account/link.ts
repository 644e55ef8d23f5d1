/**
 * `link`: a member links a team API key. The key only ever travels through the private form (DESIGN §5):
 * text after `link` is refused without being stored, echoed or logged. The key is checked with GET /me under
 * that very key before it is stored (encrypted by the store); replies show its prefix, never the key.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { formatScopes, missingScopes } from '../../format/scopes.js';
import { refreshHomes } from '../../home/home-refresh.js';
import { defineCommand, type FormSpec } from '../../parse/command-spec.js';
import { type LinkedKey, StoredKeyUnreadableError } from '../../ports/index.js';
import type { Card, Form, Response } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { say } from '../../text/messages.js';
import { type CardText, command, commandName, joinText, literal, md } from '../../text/text.js';
import { describeApiError, isApiError } from '../../video-api/api-errors.js';
import { keyId } from '../../video-api/catalog-cache.js';
import { sameTeam, teamIdentity } from '../../video-api/team-identity.js';
import type { Me } from '../../video-api/video-api.js';

export const LINK_FORM_ID = 'account.link';

/** Keys are opaque; this only catches pastes that cannot be a key (spaces, a whole paragraph). */
const MAX_KEY_LENGTH = 512;

export const linkCommand = defineCommand({
  name: 'link',
  answersWithForm: true,
  summary: 'Link your team API key (a private form opens; never paste a key in a channel)',
  options: [
    {
      name: 'key',
      kind: 'text',
      positional: true,
      rest: true,
      hidden: true,
      secret: true,
      description: 'Leave empty: the key goes in a private form, never in a chat message',
    },
  ],
  examples: ['link'],
  details: md`Opens a private form for your team API key (developer dashboard → API keys). The key is checked with the video service, stored encrypted and never shown again, only its prefix. Every command and click of yours then runs under it. Linking again replaces it; ${commandName('unlink')} removes it.`,
  async run(ctx, args) {
    // Whatever was typed after `link` may be a key: refuse without repeating it anywhere.
    if (args.key !== undefined) throw userError('key-in-channel');
    return { kind: 'form', form: await linkForm(ctx) };
  },
});

async function linkForm(ctx: CommandContext): Promise<Form> {
  const current = await linkedKey(ctx);
  return {
    id: LINK_FORM_ID,
    title: 'Link your API key',
    submitLabel: 'Link',
    state: '',
    intro: md`Only you see this form. The key is checked with the video service, stored encrypted and never shown again (only its prefix).`,
    ...(current
      ? {
          alert: {
            level: 'warning',
            text: md`This replaces your current link to **${literal(current.teamName)}** (key \`${literal(current.keyPrefix)}…\`).`,
          },
        }
      : {}),
    inputs: [
      {
        kind: 'text',
        id: 'key',
        label: 'Team API key',
        required: true,
        placeholder: 'fl_live_…',
        maxLength: MAX_KEY_LENGTH,
        hint: 'Developer dashboard → API keys. Create one with the scopes your team needs.',
        secret: true,
      },
    ],
  };
}

export const linkFormSpec: FormSpec = {
  id: LINK_FORM_ID,
  async submit(ctx, _state, values) {
    const key = (values.key ?? '').trim();
    if (key === '') return formError(say('key-empty'));
    if (/\s/.test(key) || key.length > MAX_KEY_LENGTH) return formError(say('key-malformed'));
    // Masked in this request's log lines only until the service accepts it: whatever a member submits here
    // must not become words erased from every log.
    const mask = ctx.deps.logMask;
    return mask ? await mask.within(key, () => linkKey(ctx, key)) : await linkKey(ctx, key);
  },
};

/** Checks `key` with GET /me under that very key, then stores it and masks it in every log line from now on. */
async function linkKey(ctx: CommandContext, key: string): Promise<Response> {
  let me: Me;
  try {
    me = await ctx.deps.apiFor(key, { unchecked: true }).me.get();
  } catch (error) {
    if (isApiError(error) && error.type === 'unauthorized') return formError(say('bad-key'));
    const reason = isApiError(error) ? describeApiError(error) : 'it did not answer.';
    // Only the error's type: the key is never part of a log line.
    ctx.deps.logger.warn(
      { form: LINK_FORM_ID, errorType: isApiError(error) ? error.type : 'unexpected' },
      'key check failed',
    );
    return formError(say('key-check-failed', { reason }));
  }

  const previous = await linkedKey(ctx);
  const teamId = teamIdentity(me, key);
  await ctx.deps.store.keys.put(ctx.req.user, {
    apiKey: key,
    keyPrefix: safePrefix(key, me.auth.keyPrefix),
    teamId,
    teamName: me.team.name,
  });
  // Accepted by the service: masked in every log line from now on; a replaced key is no longer ours to mask.
  if (previous && previous.apiKey !== key) ctx.deps.logMask?.forget(previous.apiKey);
  ctx.deps.logMask?.accept(key);
  // Catalogs cached under the old key may belong to another team.
  if (previous) ctx.deps.catalog.forget(keyId(previous.apiKey));
  ctx.deps.logger.info({ user: ctx.req.user, teamId }, 'API key linked');
  await refreshHomes(ctx.deps.store, { users: [ctx.req.user], cause: `link:${ctx.now()}`, now: ctx.now() });
  const switched = previous !== undefined && !sameTeam(previous, { teamId, teamName: me.team.name });
  return message(linkedCard(me, safePrefix(key, me.auth.keyPrefix), switched ? previous : undefined));
}

/** `switchedFrom`: the link this one replaces, when it was to another team. */
function linkedCard(me: Me, prefix: string, switchedFrom: LinkedKey | undefined): Card {
  const missing = me.auth.scopes ? missingScopes(me.auth.scopes) : [];
  const switched = switchedFrom ? md`\nYou switched from **${literal(switchedFrom.teamName)}**.` : md``;
  return {
    title: md`Linked to ${literal(me.team.name)}`,
    tone: missing.length > 0 ? 'warning' : 'success',
    text: md`Your commands and clicks now run under this key.${switched}${
      missing.length > 0
        ? md`\n**This key lacks some scopes:**\n${joinText(
            missing.map((m) => md`• ${m}`),
            '\n',
          )}`
        : md``
    }`,
    fields: [
      { label: md`Team`, value: literal(me.team.name), short: true },
      ...(me.plan !== undefined ? [{ label: md`Plan`, value: literal(me.plan), short: true }] : []),
      { label: md`Credits`, value: md`${me.team.credits}`, short: true },
      { label: md`Key`, value: md`\`${literal(prefix)}…\``, short: true },
      { label: md`Scopes`, value: me.auth.scopes ? formatScopes(me.auth.scopes) : md`not reported` },
    ],
    context: md`Only the prefix is ever shown. ${command('whoami')} to check, ${command('unlink')} to remove it.`,
  };
}

/** The prefix to display: the service's, unless it would reveal most of the key. */
export function safePrefix(key: string, reported: string | undefined): string {
  if (reported && key.startsWith(reported) && reported.length <= Math.min(16, key.length / 2))
    return reported;
  return key.slice(0, Math.min(12, Math.floor(key.length / 3)));
}

/** The caller's link; an unreadable one counts as none here (linking again overwrites it). */
async function linkedKey(ctx: CommandContext): Promise<LinkedKey | undefined> {
  try {
    return await ctx.deps.store.keys.get(ctx.req.user);
  } catch (error) {
    if (error instanceof StoredKeyUnreadableError) return undefined;
    throw error;
  }
}

const formError = (text: CardText): Response => ({ kind: 'form-errors', errors: { key: text } });
