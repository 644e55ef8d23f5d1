/**
 * Digest periods sent (`subscribe digest daily 09:00`): one row per conversation, digest kind and period (the
 * day the digest was due, in its zone). The digest watcher claims the row in the transaction that enqueues the
 * message, so the primary key, not a process's memory, decides that a period goes out once: a replica that
 * lost the race, or a restart that looks again, finds the row and sends nothing.
 */
import type { Clock, ConversationAddress, DigestSent, Store } from '../../core/ports/index.js';
import type { Sql } from '../sql.js';

type DigestStore = Store['digests'];

interface DigestRow {
  conversation: string;
  kind: DigestSent['kind'];
  period: string;
  sent_at: number | string;
}

export class Digests implements DigestStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async claim(sent: Omit<DigestSent, 'sentAt'>): Promise<boolean> {
    const added = await this.sql.count(
      `INSERT INTO digests_sent (conversation, kind, period, sent_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (conversation, kind, period) DO NOTHING`,
      [sent.conversation, sent.kind, sent.period, this.clock.now()],
    );
    return added === 1;
  }

  async sent(conversation: ConversationAddress): Promise<DigestSent[]> {
    const rows = await this.sql.rows<DigestRow>(
      'SELECT * FROM digests_sent WHERE conversation = $1 ORDER BY period COLLATE "C", kind COLLATE "C"',
      [conversation],
    );
    return rows.map((r) => ({
      conversation: r.conversation,
      kind: r.kind,
      period: r.period,
      sentAt: Number(r.sent_at),
    }));
  }
}
