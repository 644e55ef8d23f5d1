/** Workspace policies (one JSON document per workspace): the governance every conversation inherits. */
import type Database from 'better-sqlite3';
import { type Clock, DEFAULT_CHANNEL_SETTINGS, type Store, type WorkspacePolicy } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type PolicyStore = Synchronous<Store['policies']>;

export class SqlitePolicies implements PolicyStore {
  readonly #select: Database.Statement<[string], { policy: string }>;
  readonly #upsert: Database.Statement<[string, string, number]>;
  readonly #range: Database.Statement<[string, string], { workspace: string; policy: string }>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#select = db.prepare('SELECT policy FROM workspace_policies WHERE workspace = ?');
    this.#upsert = db.prepare(
      `INSERT INTO workspace_policies (workspace, policy, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (workspace) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at`,
    );
    this.#range = db.prepare(
      'SELECT workspace, policy FROM workspace_policies WHERE workspace >= ? AND workspace < ? ORDER BY workspace',
    );
  }

  get(workspace: string): WorkspacePolicy | undefined {
    const row = this.#select.get(workspace);
    return row ? parse(row.policy) : undefined;
  }

  put(workspace: string, policy: WorkspacePolicy): void {
    this.#upsert.run(workspace, JSON.stringify(policy), this.clock.now());
  }

  list(prefix: string): { workspace: string; policy: WorkspacePolicy }[] {
    // Every key starting with `prefix` sorts between it and the prefix with its last character bumped.
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    return this.#range.all(prefix, end).map((r) => ({ workspace: r.workspace, policy: parse(r.policy) }));
  }
}

/** Stored over the defaults, so a rule added later gets its default. Written only by put() above. */
function parse(json: string): WorkspacePolicy {
  const { threading: _t, timeZone: _z, here: _h, ...defaults } = structuredClone(DEFAULT_CHANNEL_SETTINGS);
  const stored = JSON.parse(json) as Partial<WorkspacePolicy>;
  return { ...defaults, ...stored, roles: { ...defaults.roles, ...stored.roles } };
}
