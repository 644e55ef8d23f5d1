/** Long-lived cards: the latest content the core wants shown, and the message that shows it once posted. */

import type { CardContent, CardRecord, Clock, MessageAddress, Store } from '../../core/ports/index.js';
import type { Card } from '../../core/text/cards.js';
import { json, readJson, type Sql } from '../sql.js';

type CardStore = Store['cards'];
type CardStateStore = Store['cardStates'];

interface CardRow {
  key: string;
  conversation: string;
  message: string | null;
  card: unknown;
  model: unknown;
  updated_at: number;
}

export class Cards implements CardStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async get(key: string): Promise<CardRecord | undefined> {
    const row = await this.sql.row<CardRow>('SELECT * FROM cards WHERE key = $1', [key]);
    return row && fromRow(row);
  }

  /** Without `model`, an existing card keeps its stored model ('{}' for a new card). */
  async put(key: string, { conversation, card, model }: CardContent): Promise<CardRecord> {
    // Once posted, the card stays in the conversation its message lives in.
    const row = await this.sql.row<CardRow>(
      `INSERT INTO cards AS c (key, conversation, message, card, model, updated_at)
       VALUES ($1, $2, NULL, $3, coalesce($4::json, '{}'::json), $5)
       ON CONFLICT (key) DO UPDATE SET
         card = excluded.card,
         model = coalesce($4::json, c.model),
         updated_at = excluded.updated_at,
         conversation = CASE WHEN c.message IS NULL THEN excluded.conversation ELSE c.conversation END
       RETURNING *`,
      [key, conversation, json(card), model === undefined ? null : json(model), this.clock.now()],
    );
    return fromRow(row!);
  }

  async setMessage(key: string, message: MessageAddress): Promise<void> {
    await this.sql.count('UPDATE cards SET message = $1 WHERE key = $2', [message, key]);
  }

  async withPrefix(prefix: string): Promise<CardRecord[]> {
    // A range over the primary key (in byte order): served by its index, whatever the number of cards.
    const rows = await this.sql.rows<CardRow>(
      'SELECT * FROM cards WHERE key >= $1 AND key < $2 ORDER BY key',
      [prefix, `${prefix}\u{10ffff}`],
    );
    return rows.map(fromRow);
  }
}

/** The one state of each subject's card (see `Store['cardStates']`). */
export class CardStates implements CardStateStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async get(subject: string): Promise<Record<string, unknown> | undefined> {
    const row = await this.sql.row<{ model: unknown }>('SELECT model FROM card_states WHERE subject = $1', [
      subject,
    ]);
    // Written only by put(), from a Record.
    return row && readJson<Record<string, unknown>>(row.model);
  }

  async put(subject: string, model: Record<string, unknown>): Promise<void> {
    await this.sql.count(
      `INSERT INTO card_states (subject, model, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (subject) DO UPDATE SET model = excluded.model, updated_at = excluded.updated_at`,
      [subject, json(model), this.clock.now()],
    );
  }
}

function fromRow(row: CardRow): CardRecord {
  return {
    key: row.key,
    conversation: row.conversation,
    message: row.message,
    // Both written only by put(), from a Card and a Record.
    card: readJson<Card>(row.card),
    model: readJson<Record<string, unknown>>(row.model),
    updatedAt: row.updated_at,
  };
}
