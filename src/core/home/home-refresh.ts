/**
 * Keeping members' dashboards (Slack App Home) current. A member who opens their Home is remembered (a small
 * `home:<user>` row in the card table: where their Home's direct messages go, and when they last opened it);
 * a change they may see there (a video's card, an approval, a subscription, their link) queues one
 * `refresh-home` outbox row per such member, in the change's transaction. The outbox sender coalesces the
 * rows of one member into a single publish, after a short pause so a burst of changes is published once.
 */
import { DM_WORKSPACE, decodeAddress, platformOf, workspaceOf } from '../ports/address.js';
import type { ConversationAddress, Store, UserAddress } from '../ports/index.js';
import { md } from '../text/text.js';

const PREFIX = 'home:';

/** Members who have not opened their Home for this long are not refreshed any more (it is published on open). */
export const HOME_VIEWER_TTL_MS = 30 * 24 * 3600_000;

/** Most members of one workspace refreshed for one change: the most recent openers. */
export const MAX_HOME_REFRESHES = 100;

const homeKey = (user: UserAddress): string => `${PREFIX}${user}`;

/** A workspace's Home rows start with this (user addresses are `<platform>:<workspace>:<id>`). */
const workspacePrefix = (workspace: string): string => `${PREFIX}${workspace}:`;

/**
 * `user` opened their Home; `conversation` is their direct-message channel with the app (Slack's App Home
 * Messages tab), where clicks made in the Home run and answer.
 */
export async function homeOpened(
  store: Store,
  input: { user: UserAddress; conversation: ConversationAddress },
): Promise<void> {
  await store.cards.put(homeKey(input.user), {
    conversation: input.conversation,
    card: { title: md`Home` },
    model: {},
  });
}

/** The direct-message conversation recorded when `user` last opened their Home. */
export async function homeConversation(
  store: Store,
  user: UserAddress,
): Promise<ConversationAddress | undefined> {
  return (await store.cards.get(homeKey(user)))?.conversation;
}

/** Remembers `conversation` as `user`'s direct-message channel, keeping when they last opened Home. */
export async function rememberHomeConversation(
  store: Store,
  input: { user: UserAddress; conversation: ConversationAddress },
): Promise<void> {
  const record = await store.cards.get(homeKey(input.user));
  if (record?.conversation === input.conversation) return;
  await store.cards.put(homeKey(input.user), {
    conversation: input.conversation,
    card: { title: md`Home` },
    model: record?.model ?? {},
  });
}

/** Members of `workspace` who opened their Home lately, most recent first. */
async function viewersIn(store: Store, workspace: string, now: number | undefined): Promise<UserAddress[]> {
  const rows = await store.cards.withPrefix(workspacePrefix(workspace));
  return rows
    .filter((r) => now === undefined || now - r.updatedAt < HOME_VIEWER_TTL_MS)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, MAX_HOME_REFRESHES)
    .map((r) => r.key.slice(PREFIX.length));
}

/**
 * Queues a refresh of the Home of every recent viewer in the workspaces of `where` (conversation or user
 * addresses) and of each of `users` who has opened theirs. `cause` names the change (its dedupe key), so a
 * retried change queues nothing twice. Call inside the change's transaction. Without `now`, viewers are not
 * aged out (only the most recent `MAX_HOME_REFRESHES` count).
 */
export async function refreshHomes(
  store: Store,
  input: { where?: readonly string[]; users?: readonly UserAddress[]; cause: string; now?: number },
): Promise<void> {
  const users = new Set<UserAddress>();
  const workspaces = new Set<string>();
  for (const address of input.where ?? []) {
    const decoded = safeDecode(address);
    // Discord's direct messages share one `@me` space: no workspace to refresh.
    if (decoded && decoded.workspace !== DM_WORKSPACE) workspaces.add(workspaceOf(address));
  }
  for (const workspace of workspaces)
    for (const user of await viewersIn(store, workspace, input.now)) users.add(user);
  for (const user of input.users ?? [])
    if (!users.has(user) && (await store.cards.get(homeKey(user)))) users.add(user);
  for (const user of users) {
    await store.outbox.enqueue(platformOf(user), { op: 'refresh-home', user }, `home:${user}|${input.cause}`);
  }
}

function safeDecode(address: string) {
  try {
    return decodeAddress(address);
  } catch {
    return undefined;
  }
}

/**
 * Whether a change to a video's card state shows on a dashboard (its name, phase, picked thumbnail, render
 * outcome, schedule, posts, approval, deletion); progress and estimates do not.
 */
export function dashboardChanged(before: object, after: object): boolean {
  const seen = (m: object) => {
    const v = m as Record<string, unknown>;
    const render = v.render as { status?: unknown; url?: unknown } | undefined;
    const approval = v.approval as { id?: unknown; status?: unknown } | undefined;
    return JSON.stringify([
      v.name,
      v.phase,
      v.thumbnails,
      render && [render.status, render.url],
      v.schedule,
      v.posts,
      approval && [approval.id, approval.status],
      v.deletedBy,
    ]);
  };
  return seen(before) !== seen(after);
}
