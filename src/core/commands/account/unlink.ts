/** `unlink`: forget the caller's key (the key itself keeps working at the service; revoke it there). */

import { refreshHomes } from '../../home/home-refresh.js';
import { defineCommand } from '../../parse/command-spec.js';
import { type LinkedKey, type Store, StoredKeyUnreadableError, type UserAddress } from '../../ports/index.js';
import { message } from '../../text/cards.js';
import { type CardText, command, commandName, joinText, literal, md } from '../../text/text.js';
import { keyId } from '../../video-api/catalog-cache.js';

/**
 * What the poller follows with this member's key: live status cards (generation, render, schedule) and
 * channel subscriptions (feeds, series). Approval expiries need no key, and a key's post results stop
 * without a word (results-watcher.ts): neither is counted.
 */
async function watchedWith(
  store: Store,
  user: UserAddress,
): Promise<{ cards: number; subscriptions: number }> {
  let cards = 0;
  let subscriptions = 0;
  for (const w of await store.watches.activeWhere({ owner: user })) {
    if (w.kind === 'feed' || w.kind === 'series') subscriptions++;
    else if (w.kind !== 'approval' && w.kind !== 'results') cards++;
  }
  return { cards, subscriptions };
}

const plural = (n: number, one: string, many: string): CardText =>
  md`**${n}** ${literal(n === 1 ? one : many)}`;

/** "2 live status cards and 1 channel subscription follow your key: they stop…", or '' when none do. */
function stoppingText(watched: { cards: number; subscriptions: number }): CardText {
  const parts = [
    ...(watched.cards > 0 ? [plural(watched.cards, 'live status card', 'live status cards')] : []),
    ...(watched.subscriptions > 0
      ? [plural(watched.subscriptions, 'channel subscription', 'channel subscriptions')]
      : []),
  ];
  if (parts.length === 0) return md``;
  const n = watched.cards + watched.subscriptions;
  return md`\n${joinText(parts, ' and ')} ${n === 1 ? md`was` : md`were`} followed with your key: ${n === 1 ? md`it stops` : md`they stop`} within a few minutes, each saying so where it is, unless you ${command('link')} again before.`;
}

export const unlinkCommand = defineCommand({
  name: 'unlink',
  summary: 'Remove your linked API key',
  options: [],
  examples: ['unlink'],
  details: md`Deletes your stored key. Your commands then use the deployment key if one is configured, otherwise you need to ${commandName('link')} again. The key stays valid at the video service: revoke it in the dashboard if it leaked.`,
  async run(ctx) {
    const store = ctx.deps.store;
    let linked: LinkedKey | undefined;
    try {
      linked = await store.keys.get(ctx.req.user);
    } catch (error) {
      // An unreadable row is still removed below.
      if (!(error instanceof StoredKeyUnreadableError)) throw error;
    }
    // Counted before the key goes: the poller gives up on them once it finds no key (and says why).
    const watched = await watchedWith(store, ctx.req.user);
    const removed = await store.keys.delete(ctx.req.user);
    if (linked) ctx.deps.catalog.forget(keyId(linked.apiKey));
    // The logs stop masking it (another member's client built for the same key masks it again).
    if (linked) ctx.deps.logMask?.forget(linked.apiKey);
    if (removed)
      await refreshHomes(store, { users: [ctx.req.user], cause: `unlink:${ctx.now()}`, now: ctx.now() });
    const fallback = ctx.deps.deploymentKey
      ? md`Your commands now use this workspace's shared key.`
      : md`Run ${command('link')} to link a key again.`;
    if (!removed) {
      return message({
        title: md`Nothing to unlink`,
        tone: 'info',
        text: md`You have no linked key. ${ctx.deps.deploymentKey ? md`You use this workspace's shared key.` : md`Run ${command('link')} to link one.`}`,
      });
    }
    ctx.deps.logger.info({ user: ctx.req.user }, 'API key unlinked');
    return message({
      title: md`Key unlinked`,
      tone: 'success',
      text: md`${
        linked
          ? md`I no longer use your key for **${literal(linked.teamName)}** (\`${literal(linked.keyPrefix)}…\`). `
          : md`Your stored key is removed. `
      }${fallback}${stoppingText(watched)}\nThe key itself still works at the video service: revoke it in the dashboard if it leaked.`,
    });
  },
});
