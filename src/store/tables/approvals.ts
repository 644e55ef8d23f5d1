/** Approval requests (DESIGN §5). `decide` is a compare-and-set on status, so only one decision ever wins. */
import type {
  Approval,
  ApprovalStatus,
  Clock,
  StageVote,
  Store,
  UserAddress,
} from '../../core/ports/index.js';
import { json, readJson, type Sql, withoutNul } from '../sql.js';

type ApprovalStore = Store['approvals'];

interface ApprovalRow {
  id: string;
  conversation: string;
  requester: string;
  action: unknown;
  status: ApprovalStatus;
  card_key: string;
  decided_by: string | null;
  decided_at: number | null;
  reason: string | null;
  created_at: number;
  expires_at: number | null;
  /** Absent until the approval stages migration wrote them (a row built by `create`). */
  stage?: number;
  round?: number;
}

interface VoteRow {
  stage: number;
  voter: string;
  covers: unknown;
  at: number;
}

export class Approvals implements ApprovalStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async create(approval: Omit<Approval, 'status' | 'createdAt' | 'stage' | 'round'>): Promise<Approval> {
    const created: Approval = { ...approval, status: 'pending', createdAt: this.clock.now() };
    const row: ApprovalRow = {
      id: created.id,
      conversation: created.conversation,
      requester: created.requester,
      action: json(created.action),
      status: created.status,
      card_key: created.cardKey,
      decided_by: created.decidedBy ?? null,
      decided_at: created.decidedAt ?? null,
      reason: created.reason === undefined ? null : withoutNul(created.reason),
      created_at: created.createdAt,
      expires_at: created.expiresAt,
    };
    await this.sql.count(
      `INSERT INTO approvals (id, conversation, requester, action, status, card_key, decided_by, decided_at,
         reason, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        row.id,
        row.conversation,
        row.requester,
        row.action,
        row.status,
        row.card_key,
        row.decided_by,
        row.decided_at,
        row.reason,
        row.created_at,
        row.expires_at,
      ],
    );
    // As get() will read it back: the action through JSON, absent optional fields left out.
    return fromRow(row);
  }

  async get(id: string): Promise<Approval | undefined> {
    const row = await this.sql.row<ApprovalRow>('SELECT * FROM approvals WHERE id = $1', [id]);
    return row && fromRow(row);
  }

  async decide(
    id: string,
    decision: { status: Exclude<ApprovalStatus, 'pending'>; by?: UserAddress; at: number; reason?: string },
  ): Promise<boolean> {
    // One statement: a racing decision waits for this row's lock, then finds it no longer pending.
    const decided = await this.sql.count(
      `UPDATE approvals SET status = $2, decided_by = $3, decided_at = $4, reason = $5
       WHERE id = $1 AND status = 'pending'`,
      [
        id,
        decision.status,
        decision.by ?? null,
        decision.at,
        decision.reason === undefined ? null : withoutNul(decision.reason),
      ],
    );
    return decided === 1;
  }

  /** Pending approvals whose expiry is at or before `before`, soonest first. */
  async pendingExpiring(before: number): Promise<Approval[]> {
    const rows = await this.sql.rows<ApprovalRow>(
      `SELECT * FROM approvals WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= $1
       ORDER BY expires_at, created_at`,
      [before],
    );
    return rows.map(fromRow);
  }

  async pendingIn(workspace: string): Promise<Approval[]> {
    // The workspace's conversations sort between `slack:T1:` and `slack:T1;` in byte order (the column is
    // COLLATE "C" on PostgreSQL, BINARY on SQLite), so T1 never matches T10 nor t1. Not LIKE: SQLite's ignores
    // case, and a workspace may hold its wildcards.
    const rows = await this.sql.rows<ApprovalRow>(
      `SELECT * FROM approvals WHERE status = 'pending' AND conversation > $1 AND conversation < $2
       ORDER BY created_at, id COLLATE "C"`,
      [`${workspace}:`, `${workspace};`],
    );
    return rows.map(fromRow);
  }

  async pendingAbout(videoId: string): Promise<Approval[]> {
    const rows = await this.sql.rows<ApprovalRow>(
      `SELECT * FROM approvals WHERE status = 'pending' AND action -> 'args' ->> 'videoId' = $1
       ORDER BY created_at, id COLLATE "C"`,
      [videoId],
    );
    return rows.map(fromRow);
  }

  async vote(id: string, vote: StageVote & { round: number }): Promise<boolean> {
    // Takes the request's row first: a concurrent vote of the same stage waits here, then counts after this one.
    const waiting = await this.sql.count(
      `UPDATE approvals SET stage = stage WHERE id = $1 AND status = 'pending' AND round = $2 AND stage = $3`,
      [id, vote.round, vote.stage],
    );
    if (waiting !== 1) return false;
    const counted = await this.sql.count(
      `INSERT INTO approval_votes (approval_id, round, stage, voter, covers, at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (approval_id, round, stage, voter) DO NOTHING`,
      [id, vote.round, vote.stage, vote.by, json(vote.covers), vote.at],
    );
    return counted === 1;
  }

  async votes(id: string, round: number): Promise<StageVote[]> {
    const rows = await this.sql.rows<VoteRow>(
      `SELECT stage, voter, covers, at FROM approval_votes WHERE approval_id = $1 AND round = $2
       ORDER BY at, voter COLLATE "C"`,
      [id, round],
    );
    return rows.map((r) => ({ stage: r.stage, by: r.voter, covers: readJson<string[]>(r.covers), at: r.at }));
  }

  async advance(id: string, move: { round: number; from: number; to: number }): Promise<boolean> {
    const moved = await this.sql.count(
      `UPDATE approvals SET stage = $4 WHERE id = $1 AND status = 'pending' AND round = $2 AND stage = $3`,
      [id, move.round, move.from, move.to],
    );
    return moved === 1;
  }

  async reopen(id: string, reopen: { expiresAt: number | null }): Promise<boolean> {
    const reopened = await this.sql.count(
      `UPDATE approvals SET status = 'pending', stage = 0, round = round + 1, decided_by = NULL,
         decided_at = NULL, reason = NULL, expires_at = $2
       WHERE id = $1 AND status = 'changes'`,
      [id, reopen.expiresAt],
    );
    return reopened === 1;
  }

  async sentBack(conversation: string, requester: UserAddress): Promise<Approval[]> {
    const rows = await this.sql.rows<ApprovalRow>(
      `SELECT * FROM approvals WHERE status = 'changes' AND conversation = $1 AND requester = $2
       ORDER BY created_at, id COLLATE "C"`,
      [conversation, requester],
    );
    return rows.map(fromRow);
  }
}

function fromRow(row: ApprovalRow): Approval {
  return {
    id: row.id,
    conversation: row.conversation,
    requester: row.requester,
    // Written only by create(), from Approval['action'].
    action: readJson<Approval['action']>(row.action),
    status: row.status,
    cardKey: row.card_key,
    ...(row.decided_by !== null && { decidedBy: row.decided_by }),
    ...(row.decided_at !== null && { decidedAt: row.decided_at }),
    ...(row.reason !== null && { reason: row.reason }),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...(row.stage ? { stage: row.stage } : {}),
    ...(row.round ? { round: row.round } : {}),
  };
}
