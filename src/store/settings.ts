/** Channel settings (one JSON document per conversation) and channel subscriptions. */
import type Database from 'better-sqlite3';
import {
  type ChannelSettings,
  type Clock,
  type ConversationAddress,
  DEFAULT_CHANNEL_SETTINGS,
  type Store,
  type Subscription,
  type SubscriptionKind,
} from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type SettingsStore = Synchronous<Store['settings']>;
type SubscriptionStore = Synchronous<Store['subscriptions']>;

export class SqliteSettings implements SettingsStore {
  readonly #select: Database.Statement<[string], { settings: string }>;
  readonly #upsert: Database.Statement<[string, string, number]>;
  readonly #inWorkspace: Database.Statement<[string, string], { conversation: string; settings: string }>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#select = db.prepare('SELECT settings FROM channel_settings WHERE conversation = ?');
    this.#upsert = db.prepare(
      `INSERT INTO channel_settings (conversation, settings, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (conversation) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
    );
    // A range over the primary key: every conversation of `workspace:` sorts between ':' and ';'.
    this.#inWorkspace = db.prepare(
      `SELECT conversation, settings FROM channel_settings WHERE conversation > ? AND conversation < ?
       ORDER BY conversation`,
    );
  }

  get(conversation: ConversationAddress): ChannelSettings {
    const row = this.#select.get(conversation);
    return row ? overDefaults(row.settings) : structuredClone(DEFAULT_CHANNEL_SETTINGS);
  }

  inWorkspace(workspace: string): { conversation: ConversationAddress; settings: ChannelSettings }[] {
    return this.#inWorkspace
      .all(`${workspace}:`, `${workspace};`)
      .map((r) => ({ conversation: r.conversation, settings: overDefaults(r.settings) }));
  }

  put(conversation: ConversationAddress, settings: ChannelSettings): void {
    this.#upsert.run(conversation, JSON.stringify(settings), this.clock.now());
  }
}

/** Stored settings over the defaults, so a field added later gets its default; always a fresh object. */
function overDefaults(json: string): ChannelSettings {
  const defaults = structuredClone(DEFAULT_CHANNEL_SETTINGS);
  // Written only by put() above, so the shape is ours; merging covers fields added since.
  const stored = JSON.parse(json) as Partial<ChannelSettings>;
  return { ...defaults, ...stored, roles: { ...defaults.roles, ...stored.roles } };
}

interface SubscriptionRow {
  conversation: string;
  kind: SubscriptionKind;
  target: string;
  owner: string;
  created_at: number;
}

export class SqliteSubscriptions implements SubscriptionStore {
  readonly #insert: Database.Statement<[SubscriptionRow]>;
  readonly #delete: Database.Statement<[string, string, string]>;
  readonly #list: Database.Statement<[string], SubscriptionRow>;
  readonly #inWorkspace: Database.Statement<[string, string], SubscriptionRow>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#insert = db.prepare(
      `INSERT INTO subscriptions (conversation, kind, target, owner, created_at)
       VALUES (@conversation, @kind, @target, @owner, @created_at)
       ON CONFLICT (conversation, kind, target) DO NOTHING`,
    );
    this.#delete = db.prepare('DELETE FROM subscriptions WHERE conversation = ? AND kind = ? AND target = ?');
    this.#list = db.prepare(
      'SELECT * FROM subscriptions WHERE conversation = ? ORDER BY created_at, kind, target',
    );
    // A range over the primary key: every conversation of `workspace:` sorts between ':' and ';'.
    this.#inWorkspace = db.prepare(
      `SELECT * FROM subscriptions WHERE conversation > ? AND conversation < ?
       ORDER BY conversation, created_at, kind, target`,
    );
  }

  inWorkspace(workspace: string): Subscription[] {
    return this.#inWorkspace.all(`${workspace}:`, `${workspace};`).map(fromRow);
  }

  /** False when the conversation already has this subscription (the first owner keeps it). */
  add(sub: Omit<Subscription, 'createdAt'>): boolean {
    return this.#insert.run(toRow({ ...sub, createdAt: this.clock.now() })).changes === 1;
  }

  remove(conversation: ConversationAddress, kind: SubscriptionKind, target: string): boolean {
    return this.#delete.run(conversation, kind, target).changes === 1;
  }

  list(conversation: ConversationAddress): Subscription[] {
    return this.#list.all(conversation).map(fromRow);
  }
}

function toRow(sub: Subscription): SubscriptionRow {
  return {
    conversation: sub.conversation,
    kind: sub.kind,
    target: sub.target,
    owner: sub.owner,
    created_at: sub.createdAt,
  };
}

function fromRow(row: SubscriptionRow): Subscription {
  return {
    conversation: row.conversation,
    kind: row.kind,
    target: row.target,
    owner: row.owner,
    createdAt: row.created_at,
  };
}
