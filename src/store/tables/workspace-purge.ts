/**
 * Forgetting a chat workspace (the Slack app uninstalled there): every row addressed in it goes, in one
 * transaction, so the poller never polls again with a member's key of a workspace that removed the bot.
 * The audit log stays: it is the operator's record of what was spent and published, and holds no secret.
 */
import type { WorkspacePurge } from '../../core/ports/index.js';
import type { Sql } from '../sql.js';

/**
 * Every address of workspace `slack:T1` (`slack:T1:U1`, `slack:T1:C1`, `slack:T1:C1:ts`) sorts strictly
 * between `slack:T1:` and `slack:T1;` (';' follows ':'), and never one of `slack:T10`: a range on the keys, in
 * byte order. The address columns are COLLATE "C" on PostgreSQL (BINARY on SQLite); a value read out of JSON has
 * the database's collation (on PostgreSQL often a language's, where that range also holds `slack:t1:…`), so it
 * gets "C" here.
 */
const inWorkspace = (expression: string) => `(${expression} > @from AND ${expression} < @to)`;
const fromJson = (column: string, field: string) => `((${column} ->> '${field}') COLLATE "C")`;

/** One statement per kind of row, each bound to `@from`/`@to` (and `@workspace`). Order matters: see outbox. */
const STATEMENTS: Record<Exclude<keyof WorkspacePurge, 'installations'>, string> = {
  linkedKeys: `DELETE FROM linked_keys WHERE ${inWorkspace('user_address')}`,
  userPrefs: `DELETE FROM user_prefs WHERE ${inWorkspace('user_address')}`,
  channelSettings: `DELETE FROM channel_settings WHERE ${inWorkspace('conversation')}`,
  policies: 'DELETE FROM workspace_policies WHERE workspace = @workspace',
  // By owner too: a key of this workspace polls nothing anywhere any more.
  subscriptions: `DELETE FROM subscriptions WHERE ${inWorkspace('conversation')} OR ${inWorkspace('owner')}`,
  watches: `DELETE FROM watches WHERE ${inWorkspace('conversation')} OR ${inWorkspace('owner')}`,
  approvalVotes: `DELETE FROM approval_votes WHERE approval_id IN (SELECT id FROM approvals
      WHERE ${inWorkspace('conversation')} OR ${inWorkspace('requester')})`,
  approvals: `DELETE FROM approvals WHERE ${inWorkspace('conversation')} OR ${inWorkspace('requester')}`,
  // Posts still to make there (delivered rows keep no item); before the cards they name are deleted.
  outbox: `DELETE FROM outbox WHERE item IS NOT NULL AND (
      ${inWorkspace(fromJson('item', 'conversation'))}
      OR ${inWorkspace(fromJson('item', 'user'))}
      OR ${fromJson('item', 'cardKey')} IN (SELECT key FROM cards WHERE ${inWorkspace('conversation')}))`,
  cards: `DELETE FROM cards WHERE ${inWorkspace('conversation')}`,
  // After cards: a video's state goes with its last card ('video:<id>@…' sorts between '…@' and '…A').
  cardStates: `DELETE FROM card_states WHERE NOT EXISTS (SELECT 1 FROM cards
      WHERE cards.key > card_states.subject || '@' AND cards.key < card_states.subject || 'A')`,
  deliveries: `DELETE FROM chat_deliveries WHERE ${inWorkspace('conversation')}`,
  // A write never recorded here is not replayed into a workspace that removed the bot.
  effects: `DELETE FROM pending_effects WHERE ${inWorkspace(fromJson('request', 'conversation'))}`,
  digests: `DELETE FROM digests_sent WHERE ${inWorkspace('conversation')}`,
};

/**
 * Deletes every row of `workspaces` (`slack:T1`; an org install may name its enterprise too) and the chat
 * app installations `installations` (their ids); returns how many rows went. The caller runs it in one
 * transaction (each store's `purgeWorkspace`).
 */
export async function purgeWorkspace(
  sql: Sql,
  purge: { workspaces: readonly string[]; installations: readonly string[] },
): Promise<WorkspacePurge> {
  for (const workspace of purge.workspaces)
    if (!/^[a-z]+:[^:;]+$/.test(workspace)) throw new Error(`not a workspace: ${workspace}`);
  const counts = { installations: 0 } as WorkspacePurge;
  const kinds = Object.keys(STATEMENTS) as (keyof typeof STATEMENTS)[];
  for (const kind of kinds) counts[kind] = 0;
  for (const workspace of purge.workspaces) {
    const range = { workspace, from: `${workspace}:`, to: `${workspace};` };
    for (const kind of kinds) counts[kind] += await sql.count(...bind(STATEMENTS[kind], range));
  }
  for (const id of purge.installations) {
    counts.installations += await sql.count('DELETE FROM installations WHERE id = $1', [id]);
  }
  return counts;
}

/**
 * Turns the `@name` placeholders a statement uses into $1, $2… with their values: PostgreSQL refuses a
 * parameter the statement does not use (it cannot tell its type).
 */
function bind(statement: string, values: Record<string, string>): [string, string[]] {
  const names: string[] = [];
  const text = statement.replace(/@(\w+)/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for @${name}`);
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return [text, names.map((name) => values[name]!)];
}
