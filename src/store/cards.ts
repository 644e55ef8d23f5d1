/** Long-lived cards: the latest content the core wants shown, and the message that shows it once posted. */
import type Database from 'better-sqlite3';
import type { Card } from '../core/cards.js';
import type { CardContent, CardRecord, Clock, MessageAddress, Store } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type CardStore = Synchronous<Store['cards']>;

interface CardRow {
  key: string;
  conversation: string;
  message: string | null;
  card: string;
  model: string;
  updated_at: number;
}

interface PutParams {
  key: string;
  conversation: string;
  card: string;
  /** NULL keeps the stored model ('{}' for a new card). */
  model: string | null;
  updated_at: number;
}

export class SqliteCards implements CardStore {
  readonly #get: Database.Statement<[string], CardRow>;
  readonly #upsert: Database.Statement<[PutParams], CardRow>;
  readonly #setMessage: Database.Statement<[string, string]>;
  readonly #withPrefix: Database.Statement<[string, string], CardRow>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#get = db.prepare('SELECT * FROM cards WHERE key = ?');
    // Once posted, the card stays in the conversation its message lives in.
    this.#upsert = db.prepare(
      `INSERT INTO cards (key, conversation, message, card, model, updated_at)
       VALUES (@key, @conversation, NULL, @card, coalesce(@model, '{}'), @updated_at)
       ON CONFLICT (key) DO UPDATE SET
         card = excluded.card,
         model = coalesce(@model, model),
         updated_at = excluded.updated_at,
         conversation = CASE WHEN message IS NULL THEN excluded.conversation ELSE conversation END
       RETURNING *`,
    );
    this.#setMessage = db.prepare('UPDATE cards SET message = ? WHERE key = ?');
    // A range over the primary key: served by its index, whatever the number of cards.
    this.#withPrefix = db.prepare('SELECT * FROM cards WHERE key >= ? AND key < ? ORDER BY key');
  }

  get(key: string): CardRecord | undefined {
    const row = this.#get.get(key);
    return row && fromRow(row);
  }

  /** Without `model`, an existing card keeps its stored model. */
  put(key: string, { conversation, card, model }: CardContent): CardRecord {
    const row = this.#upsert.get({
      key,
      conversation,
      card: JSON.stringify(card),
      model: model === undefined ? null : JSON.stringify(model),
      updated_at: this.clock.now(),
    });
    return fromRow(row!);
  }

  setMessage(key: string, message: MessageAddress): void {
    this.#setMessage.run(message, key);
  }

  withPrefix(prefix: string): CardRecord[] {
    return this.#withPrefix.all(prefix, `${prefix}\u{10ffff}`).map(fromRow);
  }
}

interface StateRow {
  model: string;
}

/** The one state of each subject's card (see `Store['cardStates']`). */
export class SqliteCardStates {
  readonly #get: Database.Statement<[string], StateRow>;
  readonly #put: Database.Statement<[string, string, number]>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.#get = db.prepare('SELECT model FROM card_states WHERE subject = ?');
    this.#put = db.prepare(
      `INSERT INTO card_states (subject, model, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (subject) DO UPDATE SET model = excluded.model, updated_at = excluded.updated_at`,
    );
  }

  get(subject: string): Record<string, unknown> | undefined {
    const row = this.#get.get(subject);
    // Written only by put(), from a Record.
    return row && (JSON.parse(row.model) as Record<string, unknown>);
  }

  put(subject: string, model: Record<string, unknown>): void {
    this.#put.run(subject, JSON.stringify(model), this.clock.now());
  }
}

function fromRow(row: CardRow): CardRecord {
  return {
    key: row.key,
    conversation: row.conversation,
    message: row.message,
    // Both written only by put(), from a Card and a Record.
    card: JSON.parse(row.card) as Card,
    model: JSON.parse(row.model) as Record<string, unknown>,
    updatedAt: row.updated_at,
  };
}
