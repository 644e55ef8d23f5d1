/** The audit log (DESIGN §5): every approval request and decision, spend and publish, queried per workspace. */
import type { AuditEntry, AuditQuery, Store } from '../../core/ports/index.js';
import { json, readJson, type Sql } from '../sql.js';

type AuditStore = Store['audit'];

interface AuditRow {
  at: number;
  conversation: string;
  actor: string;
  action: string;
  video_id: string | null;
  series_id: string | null;
  credits: number | null;
  details: unknown;
}

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 1000;

export class Audit implements AuditStore {
  constructor(private readonly sql: Sql) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.sql.count(
      `INSERT INTO audit (at, conversation, actor, action, video_id, series_id, credits, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        entry.at,
        entry.conversation,
        entry.actor,
        entry.action,
        entry.videoId ?? null,
        entry.seriesId ?? null,
        entry.credits ?? null,
        entry.details === undefined ? null : json(entry.details),
      ],
    );
  }

  /** Newest first; `from` inclusive, `to` exclusive; `limit` defaults to 50, at most 1000. */
  async list(query: AuditQuery): Promise<AuditEntry[]> {
    const limit = Math.min(Math.max(1, Math.trunc(query.limit ?? AUDIT_DEFAULT_LIMIT)), AUDIT_MAX_LIMIT);
    // substr() rather than LIKE: a workspace prefix may contain LIKE wildcards (`_`). SQLite's and PostgreSQL's
    // substr() count characters (code points); JS `length` counts UTF-16 units. A per-video query filters on
    // video_id so it can use the audit_video index.
    const rows = await this.sql.rows<AuditRow>(
      `SELECT at, conversation, actor, action, video_id, series_id, credits, details FROM audit
       WHERE substr(conversation, 1, $2) = $1 ${query.videoId === undefined ? '' : 'AND video_id = $6'}
         AND ($3::double precision IS NULL OR at >= $3)
         AND ($4::double precision IS NULL OR at < $4)
       ORDER BY at DESC, id DESC LIMIT $5`,
      [
        query.workspacePrefix,
        [...query.workspacePrefix].length,
        query.from ?? null,
        query.to ?? null,
        limit,
        ...(query.videoId === undefined ? [] : [query.videoId]),
      ],
    );
    return rows.map(fromRow);
  }
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
    // Written only by record(), from a Record.
    ...(row.details !== null && { details: readJson<Record<string, unknown>>(row.details) }),
  };
}
