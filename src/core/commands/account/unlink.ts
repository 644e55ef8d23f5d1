/** `unlink`: forget the caller's key (the key itself keeps working at the service; revoke it there). */

import { message } from '../../cards.js';
import { keyId } from '../../catalog-cache.js';
import { defineCommand } from '../../command-spec.js';
import { type LinkedKey, StoredKeyUnreadableError } from '../../ports.js';
import { literal } from '../../text.js';

export const unlinkCommand = defineCommand({
  name: 'unlink',
  summary: 'Remove your linked API key',
  options: [],
  examples: ['unlink'],
  details:
    'Deletes your stored key. Your commands then use the deployment key if one is configured, otherwise ' +
    'you need to `link` again. The key stays valid at the video service: revoke it in the dashboard if it leaked.',
  async run(ctx) {
    const store = ctx.deps.store;
    let linked: LinkedKey | undefined;
    try {
      linked = store.keys.get(ctx.req.user);
    } catch (error) {
      // An unreadable row is still removed below.
      if (!(error instanceof StoredKeyUnreadableError)) throw error;
    }
    const removed = store.keys.delete(ctx.req.user);
    if (linked) ctx.deps.catalog.forget(keyId(linked.apiKey));
    const fallback = ctx.deps.deploymentKey
      ? "Your commands now use this workspace's shared key."
      : 'Run `/reel link` to link a key again.';
    if (!removed) {
      return message({
        title: 'Nothing to unlink',
        tone: 'info',
        text: `You have no linked key. ${ctx.deps.deploymentKey ? "You use this workspace's shared key." : 'Run `/reel link` to link one.'}`,
      });
    }
    ctx.deps.logger.info({ user: ctx.req.user }, 'API key unlinked');
    return message({
      title: 'Key unlinked',
      tone: 'success',
      text:
        (linked
          ? `I no longer use your key for **${literal(linked.teamName)}** (\`${literal(linked.keyPrefix)}…\`). `
          : 'Your stored key is removed. ') +
        `${fallback}\nThe key itself still works at the video service: revoke it in the dashboard if it leaked.`,
    });
  },
});
