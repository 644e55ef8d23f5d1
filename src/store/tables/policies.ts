/** Workspace policies (one JSON document per workspace): the governance every conversation inherits. */
import {
  type Clock,
  DEFAULT_CHANNEL_SETTINGS,
  type Store,
  type WorkspacePolicy,
} from '../../core/ports/index.js';
import { json, readJson, type Sql } from '../sql.js';

type PolicyStore = Store['policies'];

export class Policies implements PolicyStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async get(workspace: string): Promise<WorkspacePolicy | undefined> {
    const row = await this.sql.row<{ policy: unknown }>(
      'SELECT policy FROM workspace_policies WHERE workspace = $1',
      [workspace],
    );
    return row ? overDefaults(row.policy) : undefined;
  }

  async put(workspace: string, policy: WorkspacePolicy): Promise<void> {
    await this.sql.count(
      `INSERT INTO workspace_policies (workspace, policy, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (workspace) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at`,
      [workspace, json(policy), this.clock.now()],
    );
  }

  async list(prefix: string): Promise<{ workspace: string; policy: WorkspacePolicy }[]> {
    // Every key starting with `prefix` sorts between it and the prefix with its last character bumped (in the
    // column's byte order: COLLATE "C" on PostgreSQL, BINARY on SQLite).
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const rows = await this.sql.rows<{ workspace: string; policy: unknown }>(
      `SELECT workspace, policy FROM workspace_policies WHERE workspace >= $1 AND workspace < $2
       ORDER BY workspace`,
      [prefix, end],
    );
    return rows.map((r) => ({ workspace: r.workspace, policy: overDefaults(r.policy) }));
  }
}

/** Stored over the defaults, so a rule added later gets its default. Written only by put() above. */
function overDefaults(policy: unknown): WorkspacePolicy {
  const { threading: _t, timeZone: _z, here: _h, ...defaults } = structuredClone(DEFAULT_CHANNEL_SETTINGS);
  const stored = readJson<Partial<WorkspacePolicy>>(policy);
  return { ...defaults, ...stored, roles: { ...defaults.roles, ...stored.roles } };
}
