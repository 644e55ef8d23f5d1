/**
 * Forgetting a chat workspace (the Slack app uninstalled there): every row addressed in it goes, in one
 * transaction, so the poller never polls again with a member's key of a workspace that removed the bot.
 * The audit log stays: it is the operator's record of what was spent and published, and holds no secret.
 */
import type Database from 'better-sqlite3';
import type { WorkspacePurge } from '../core/ports.js';

/**
 * Every address of workspace `slack:T1` (`slack:T1:U1`, `slack:T1:C1`, `slack:T1:C1:ts`) sorts strictly
 * between `slack:T1:` and `slack:T1;` (';' follows ':'), and never one of `slack:T10`: a range on the keys.
 */
const inWorkspace = (column: string) => `(${column} > @from AND ${column} < @to)`;

/** One statement per kind of row, each bound to `@from`/`@to` (and `@workspace`). Order matters: see outbox. */
const STATEMENTS: Record<Exclude<keyof WorkspacePurge, 'installations'>, string> = {
  linkedKeys: `DELETE FROM linked_keys WHERE ${inWorkspace('user')}`,
  userPrefs: `DELETE FROM user_prefs WHERE ${inWorkspace('user')}`,
  channelSettings: `DELETE FROM channel_settings WHERE ${inWorkspace('conversation')}`,
  policies: 'DELETE FROM workspace_policies WHERE workspace = @workspace',
  // By owner too: a key of this workspace polls nothing anywhere any more.
  subscriptions: `DELETE FROM subscriptions WHERE ${inWorkspace('conversation')} OR ${inWorkspace('owner')}`,
  watches: `DELETE FROM watches WHERE ${inWorkspace('conversation')} OR ${inWorkspace('owner')}`,
  approvals: `DELETE FROM approvals WHERE ${inWorkspace('conversation')} OR ${inWorkspace('requester')}`,
  // Posts still to make there (delivered rows keep no item); before the cards they name are deleted.
  outbox: `DELETE FROM outbox WHERE item IS NOT NULL AND (
      ${inWorkspace("json_extract(item, '$.conversation')")}
      OR ${inWorkspace("json_extract(item, '$.user')")}
      OR json_extract(item, '$.cardKey') IN (SELECT key FROM cards WHERE ${inWorkspace('conversation')}))`,
  cards: `DELETE FROM cards WHERE ${inWorkspace('conversation')}`,
  // After cards: a video's state goes with its last card ('video:<id>@…' sorts between '…@' and '…A').
  cardStates: `DELETE FROM card_states WHERE NOT EXISTS (SELECT 1 FROM cards
      WHERE cards.key > card_states.subject || '@' AND cards.key < card_states.subject || 'A')`,
  deliveries: `DELETE FROM chat_deliveries WHERE ${inWorkspace('conversation')}`,
  // A write never recorded here is not replayed into a workspace that removed the bot.
  effects: `DELETE FROM pending_effects WHERE ${inWorkspace("json_extract(request, '$.conversation')")}`,
};

/**
 * Deletes every row of `workspaces` (`slack:T1`; an org install may name its enterprise too) and the chat
 * app installations `installations` (their ids), in one IMMEDIATE transaction; returns how many rows went.
 */
export function purgeWorkspace(
  db: Database.Database,
  purge: { workspaces: readonly string[]; installations: readonly string[] },
): WorkspacePurge {
  const statements = Object.entries(STATEMENTS).map(
    ([kind, sql]) => [kind as keyof typeof STATEMENTS, db.prepare(sql)] as const,
  );
  for (const workspace of purge.workspaces)
    if (!/^[a-z]+:[^:;]+$/.test(workspace)) throw new Error(`not a workspace: ${workspace}`);
  const deleteInstallation = db.prepare<[string]>('DELETE FROM installations WHERE id = ?');
  const run = db.transaction((): WorkspacePurge => {
    const counts = { installations: 0 } as WorkspacePurge;
    for (const [kind] of statements) counts[kind] = 0;
    for (const workspace of purge.workspaces) {
      const range = { workspace, from: `${workspace}:`, to: `${workspace};` };
      for (const [kind, statement] of statements) counts[kind] += statement.run(range).changes;
    }
    for (const id of purge.installations) counts.installations += deleteInstallation.run(id).changes;
    return counts;
  });
  return run.immediate();
}
