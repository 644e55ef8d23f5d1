/** Approval requests (DESIGN §5). `decide` is a compare-and-set on status, so only one decision ever wins. */
import type Database from 'better-sqlite3';
import type { Approval, ApprovalStatus, Clock, Store, UserAddress } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type ApprovalStore = Synchronous<Store['approvals']>;

interface ApprovalRow {
  id: string;
  conversation: string;
  requester: string;
  action: string;
  status: ApprovalStatus;
  card_key: string;
  decided_by: string | null;
  decided_at: number | null;
  reason: string | null;
  created_at: number;
  expires_at: number | null;
}

interface DecideParams {
  id: string;
  status: Exclude<ApprovalStatus, 'pending'>;
  decided_by: string | null;
  decided_at: number;
  reason: string | null;
}

export class SqliteApprovals implements ApprovalStore {
  readonly #insert: Database.Statement<[ApprovalRow]>;
  readonly #get: Database.Statement<[string], ApprovalRow>;
  readonly #decide: Database.Statement<[DecideParams]>;
  readonly #pendingExpiring: Database.Statement<[number], ApprovalRow>;
  readonly #pendingIn: Database.Statement<[string], ApprovalRow>;
  readonly #pendingAbout: Database.Statement<[string], ApprovalRow>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#insert = db.prepare(
      `INSERT INTO approvals (id, conversation, requester, action, status, card_key, decided_by, decided_at,
         reason, created_at, expires_at)
       VALUES (@id, @conversation, @requester, @action, @status, @card_key, @decided_by, @decided_at, @reason,
         @created_at, @expires_at)`,
    );
    this.#get = db.prepare('SELECT * FROM approvals WHERE id = ?');
    this.#decide = db.prepare(
      `UPDATE approvals SET status = @status, decided_by = @decided_by, decided_at = @decided_at, reason = @reason
       WHERE id = @id AND status = 'pending'`,
    );
    this.#pendingExpiring = db.prepare(
      `SELECT * FROM approvals WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= ?
       ORDER BY expires_at, created_at`,
    );
    // `slack:T1:%`: the workspace's conversations (a `:` ends the workspace part, so T1 never matches T10).
    this.#pendingIn = db.prepare(
      `SELECT * FROM approvals WHERE status = 'pending' AND conversation LIKE ? ESCAPE '\\'
       ORDER BY created_at, id`,
    );
    this.#pendingAbout = db.prepare(
      `SELECT * FROM approvals WHERE status = 'pending' AND json_extract(action, '$.args.videoId') = ?
       ORDER BY created_at, id`,
    );
  }

  create(approval: Omit<Approval, 'status' | 'createdAt'>): Approval {
    const row = toRow({ ...approval, status: 'pending', createdAt: this.clock.now() });
    this.#insert.run(row);
    return fromRow(row);
  }

  get(id: string): Approval | undefined {
    const row = this.#get.get(id);
    return row && fromRow(row);
  }

  decide(
    id: string,
    decision: { status: Exclude<ApprovalStatus, 'pending'>; by?: UserAddress; at: number; reason?: string },
  ): boolean {
    const params: DecideParams = {
      id,
      status: decision.status,
      decided_by: decision.by ?? null,
      decided_at: decision.at,
      reason: decision.reason ?? null,
    };
    return this.#decide.run(params).changes === 1;
  }

  /** Pending approvals whose expiry is at or before `before`, soonest first. */
  pendingExpiring(before: number): Approval[] {
    return this.#pendingExpiring.all(before).map(fromRow);
  }

  pendingIn(workspace: string): Approval[] {
    const prefix = workspace.replace(/[\\%_]/g, (c) => `\\${c}`);
    return this.#pendingIn.all(`${prefix}:%`).map(fromRow);
  }

  pendingAbout(videoId: string): Approval[] {
    return this.#pendingAbout.all(videoId).map(fromRow);
  }
}

function toRow(approval: Approval): ApprovalRow {
  return {
    id: approval.id,
    conversation: approval.conversation,
    requester: approval.requester,
    action: JSON.stringify(approval.action),
    status: approval.status,
    card_key: approval.cardKey,
    decided_by: approval.decidedBy ?? null,
    decided_at: approval.decidedAt ?? null,
    reason: approval.reason ?? null,
    created_at: approval.createdAt,
    expires_at: approval.expiresAt,
  };
}

function fromRow(row: ApprovalRow): Approval {
  return {
    id: row.id,
    conversation: row.conversation,
    requester: row.requester,
    // Written only by toRow, from Approval['action'].
    action: JSON.parse(row.action) as Approval['action'],
    status: row.status,
    cardKey: row.card_key,
    ...(row.decided_by !== null && { decidedBy: row.decided_by }),
    ...(row.decided_at !== null && { decidedAt: row.decided_at }),
    ...(row.reason !== null && { reason: row.reason }),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
