/** Channel settings (one JSON document per conversation) and channel subscriptions. */
import {
  type ChannelSettings,
  type Clock,
  type ConversationAddress,
  DEFAULT_CHANNEL_SETTINGS,
  type Store,
  type Subscription,
  type SubscriptionFilters,
  type SubscriptionKind,
} from '../../core/ports/index.js';
import { json, readJson, type Sql } from '../sql.js';

type SettingsStore = Store['settings'];
type SubscriptionStore = Store['subscriptions'];

export class Settings implements SettingsStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async get(conversation: ConversationAddress): Promise<ChannelSettings> {
    const row = await this.sql.row<{ settings: unknown }>(
      'SELECT settings FROM channel_settings WHERE conversation = $1',
      [conversation],
    );
    return row ? overDefaults(row.settings) : structuredClone(DEFAULT_CHANNEL_SETTINGS);
  }

  async inWorkspace(
    workspace: string,
  ): Promise<{ conversation: ConversationAddress; settings: ChannelSettings }[]> {
    // A range over the primary key (byte order): every conversation of `workspace:` sorts between ':' and ';'.
    const rows = await this.sql.rows<{ conversation: string; settings: unknown }>(
      `SELECT conversation, settings FROM channel_settings WHERE conversation > $1 AND conversation < $2
       ORDER BY conversation`,
      [`${workspace}:`, `${workspace};`],
    );
    return rows.map((r) => ({ conversation: r.conversation, settings: overDefaults(r.settings) }));
  }

  async put(conversation: ConversationAddress, settings: ChannelSettings): Promise<void> {
    await this.sql.count(
      `INSERT INTO channel_settings (conversation, settings, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (conversation) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
      [conversation, json(settings), this.clock.now()],
    );
  }
}

/** Stored settings over the defaults, so a field added later gets its default; always a fresh object. */
function overDefaults(settings: unknown): ChannelSettings {
  const defaults = structuredClone(DEFAULT_CHANNEL_SETTINGS);
  // Written only by put() above, so the shape is ours; merging covers fields added since.
  const stored = readJson<Partial<ChannelSettings>>(settings);
  return { ...defaults, ...stored, roles: { ...defaults.roles, ...stored.roles } };
}

interface SubscriptionRow {
  conversation: string;
  kind: SubscriptionKind;
  target: string;
  owner: string;
  created_at: number;
  /** JSON; NULL for a subscription made before filters existed (it follows everything). */
  filters: string | null;
}

export class Subscriptions implements SubscriptionStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async inWorkspace(workspace: string): Promise<Subscription[]> {
    // A range over the primary key (byte order): every conversation of `workspace:` sorts between ':' and ';'.
    const rows = await this.sql.rows<SubscriptionRow>(
      `SELECT * FROM subscriptions WHERE conversation > $1 AND conversation < $2
       ORDER BY conversation, created_at, kind COLLATE "C", target COLLATE "C"`,
      [`${workspace}:`, `${workspace};`],
    );
    return rows.map(fromRow);
  }

  /** False when the conversation already has this subscription (the first owner and filters keep it). */
  async add(sub: Omit<Subscription, 'createdAt'>): Promise<boolean> {
    const added = await this.sql.count(
      `INSERT INTO subscriptions (conversation, kind, target, owner, created_at, filters)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (conversation, kind, target) DO NOTHING`,
      [sub.conversation, sub.kind, sub.target, sub.owner, this.clock.now(), filtersJson(sub.filters)],
    );
    return added === 1;
  }

  async setFilters(
    sub: Pick<Subscription, 'conversation' | 'kind' | 'target'>,
    filters: SubscriptionFilters,
  ): Promise<boolean> {
    const changed = await this.sql.count(
      'UPDATE subscriptions SET filters = $4 WHERE conversation = $1 AND kind = $2 AND target = $3',
      [sub.conversation, sub.kind, sub.target, filtersJson(filters)],
    );
    return changed === 1;
  }

  async remove(conversation: ConversationAddress, kind: SubscriptionKind, target: string): Promise<boolean> {
    const removed = await this.sql.count(
      'DELETE FROM subscriptions WHERE conversation = $1 AND kind = $2 AND target = $3',
      [conversation, kind, target],
    );
    return removed === 1;
  }

  async list(conversation: ConversationAddress): Promise<Subscription[]> {
    const rows = await this.sql.rows<SubscriptionRow>(
      // Byte order on every key: PostgreSQL's kind and target otherwise keep the database's collation.
      'SELECT * FROM subscriptions WHERE conversation = $1 ORDER BY created_at, kind COLLATE "C", target COLLATE "C"',
      [conversation],
    );
    return rows.map(fromRow);
  }
}

function fromRow(row: SubscriptionRow): Subscription {
  return {
    conversation: row.conversation,
    kind: row.kind,
    target: row.target,
    owner: row.owner,
    createdAt: row.created_at,
    ...(row.filters === null ? {} : { filters: readJson<SubscriptionFilters>(row.filters) }),
  };
}

/** NULL when nothing is filtered, so an unfiltered row reads the same as one from before filters. */
const filtersJson = (filters: SubscriptionFilters | undefined): string | null =>
  filters && Object.keys(filters).length > 0 ? json(filters) : null;
