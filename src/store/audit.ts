/** The audit log (DESIGN §5): every approval request and decision, spend and publish, queried per workspace. */
import type Database from 'better-sqlite3';
import type { AuditEntry, AuditQuery, Store } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type AuditStore = Synchronous<Store['audit']>;

interface AuditRow {
  at: number;
  conversation: string;
  actor: string;
  action: string;
  video_id: string | null;
  series_id: string | null;
  credits: number | null;
  details: string | null;
}

interface ListParams {
  prefix: string;
  prefix_length: number;
  video_id: string | null;
  from: number | null;
  to: number | null;
  limit: number;
}

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 1000;

export class SqliteAudit implements AuditStore {
  readonly #insert: Database.Statement<[AuditRow]>;
  readonly #list: Database.Statement<[ListParams], AuditRow>;
  readonly #listVideo: Database.Statement<[ListParams], AuditRow>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO audit (at, conversation, actor, action, video_id, series_id, credits, details)
       VALUES (@at, @conversation, @actor, @action, @video_id, @series_id, @credits, @details)`,
    );
    // substr() rather than LIKE: a workspace prefix may contain LIKE wildcards (`_`).
    const list = (videoFilter: string) =>
      db.prepare<[ListParams], AuditRow>(
        `SELECT at, conversation, actor, action, video_id, series_id, credits, details FROM audit
         WHERE substr(conversation, 1, @prefix_length) = @prefix ${videoFilter}
           AND (@from IS NULL OR at >= @from)
           AND (@to IS NULL OR at < @to)
         ORDER BY at DESC, id DESC LIMIT @limit`,
      );
    this.#list = list('');
    // A separate statement so a per-video query can use the audit_video index.
    this.#listVideo = list('AND video_id = @video_id');
  }

  record(entry: AuditEntry): void {
    this.#insert.run(toRow(entry));
  }

  /** Newest first; `from` inclusive, `to` exclusive; `limit` defaults to 50, at most 1000. */
  list(query: AuditQuery): AuditEntry[] {
    const limit = Math.min(Math.max(1, Math.trunc(query.limit ?? AUDIT_DEFAULT_LIMIT)), AUDIT_MAX_LIMIT);
    const statement = query.videoId === undefined ? this.#list : this.#listVideo;
    return statement
      .all({
        prefix: query.workspacePrefix,
        // SQLite's substr() counts characters (code points), JS `length` counts UTF-16 units.
        prefix_length: [...query.workspacePrefix].length,
        video_id: query.videoId ?? null,
        from: query.from ?? null,
        to: query.to ?? null,
        limit,
      })
      .map(fromRow);
  }
}

function toRow(entry: AuditEntry): AuditRow {
  return {
    at: entry.at,
    conversation: entry.conversation,
    actor: entry.actor,
    action: entry.action,
    video_id: entry.videoId ?? null,
    series_id: entry.seriesId ?? null,
    credits: entry.credits ?? null,
    details: entry.details === undefined ? null : JSON.stringify(entry.details),
  };
}

function fromRow(row: AuditRow): AuditEntry {
  return {
    at: row.at,
    conversation: row.conversation,
    actor: row.actor,
    action: row.action,
    ...(row.video_id !== null && { videoId: row.video_id }),
    ...(row.series_id !== null && { seriesId: row.series_id }),
    ...(row.credits !== null && { credits: row.credits }),
    // Written only by toRow, from a Record.
    ...(row.details !== null && { details: JSON.parse(row.details) as Record<string, unknown> }),
  };
}
