/**
 * Forgetting a chat workspace (its app removed): every row addressed in it goes (`Store.purgeWorkspace`).
 * A video followed with a key of that workspace but also shown elsewhere (another workspace or platform)
 * is not left frozen there: its watch stops first, as when its key is unlinked, so the cards that
 * remain say so and how to follow it again (`status` with a key of their own).
 */

import { projectionsOf, videoOfCardKey } from '../live/projections.js';
import { WATCHERS } from '../live/watchers.js';
import { decodeAddress } from '../ports/address.js';
import type { Store, Watch, WorkspacePurge } from '../ports/index.js';

const inWorkspace = (address: string, workspace: string): boolean => {
  const { platform, workspace: id } = decodeAddress(address);
  return `${platform}:${id}` === workspace;
};

/** Whether the watch's video is shown in a conversation outside `workspaces`. */
async function shownElsewhere(store: Store, watch: Watch, workspaces: readonly string[]): Promise<boolean> {
  const videoId = watch.cardKey ? videoOfCardKey(watch.cardKey) : undefined;
  if (!videoId) return false;
  return (await projectionsOf(store, videoId)).some(
    (p) => !workspaces.some((w) => inWorkspace(p.conversation, w)),
  );
}

export async function forgetWorkspace(
  store: Store,
  purge: { workspaces: readonly string[]; installations: readonly string[]; now: number },
): Promise<WorkspacePurge> {
  const { workspaces, installations, now } = purge;
  await store.transaction(async () => {
    for (const watch of await store.watches.active()) {
      const ours = workspaces.some((w) => inWorkspace(watch.owner, w) || inWorkspace(watch.conversation, w));
      if (!ours || !(await shownElsewhere(store, watch, workspaces))) continue;
      await WATCHERS[watch.kind]?.expire({ store, watch, now, reason: 'no-key' });
      await store.watches.update(watch.id, { status: 'done' });
    }
  });
  return await store.purgeWorkspace({ workspaces, installations });
}
