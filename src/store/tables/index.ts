/**
 * Every table of the `Store`, over one executor: written once in this folder and wired once here,
 * for both databases. A store is this plus how it runs transactions and closes (sqlite-store.ts,
 * postgres/postgres-store.ts).
 */
import type { Clock, Store } from '../../core/ports/index.js';
import { INSTALLATION_UNREADABLE, KEY_UNREADABLE, RowSealer } from '../crypto.js';
import type { Sql } from '../sql.js';
import { Approvals } from './approvals.js';
import { Audit } from './audit.js';
import { CardStates, Cards } from './cards.js';
import { Digests } from './digests.js';
import { Effects } from './effects.js';
import { Idempotency } from './idempotency.js';
import { Deliveries, Installations } from './installations.js';
import { InteractionStates } from './interactions.js';
import { Keys } from './keys.js';
import { Outbox } from './outbox.js';
import { Policies } from './policies.js';
import { Settings, Subscriptions } from './settings.js';
import { Users } from './users.js';
import { Watches } from './watches.js';
import { purgeWorkspace } from './workspace-purge.js';

export abstract class TableStore implements Store {
  readonly keys: Store['keys'];
  readonly users: Store['users'];
  readonly settings: Store['settings'];
  readonly policies: Store['policies'];
  readonly subscriptions: Store['subscriptions'];
  readonly watches: Store['watches'];
  readonly cards: Store['cards'];
  readonly cardStates: Store['cardStates'];
  readonly outbox: Store['outbox'];
  readonly idempotency: Store['idempotency'];
  readonly effects: Store['effects'];
  readonly approvals: Store['approvals'];
  readonly audit: Store['audit'];
  readonly installations: Store['installations'];
  readonly deliveries: Store['deliveries'];
  readonly interactions: Store['interactions'];
  readonly digests: Store['digests'];

  constructor(
    private readonly sql: Sql,
    { secretKey, clock }: { secretKey: Buffer; clock: Clock },
  ) {
    this.keys = new Keys(sql, new RowSealer(secretKey, KEY_UNREADABLE), clock);
    this.users = new Users(sql);
    this.settings = new Settings(sql, clock);
    this.policies = new Policies(sql, clock);
    this.subscriptions = new Subscriptions(sql, clock);
    this.watches = new Watches(sql, clock);
    this.cards = new Cards(sql, clock);
    this.cardStates = new CardStates(sql, clock);
    this.outbox = new Outbox(sql, clock);
    this.idempotency = new Idempotency(sql, clock);
    this.effects = new Effects(sql, clock);
    this.approvals = new Approvals(sql, clock);
    this.audit = new Audit(sql);
    this.installations = new Installations(sql, new RowSealer(secretKey, INSTALLATION_UNREADABLE), clock);
    this.deliveries = new Deliveries(sql, clock);
    this.interactions = new InteractionStates(sql, secretKey, clock);
    this.digests = new Digests(sql, clock);
  }

  abstract transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;

  /** In one transaction (or as a savepoint of the caller's). */
  purgeWorkspace(purge: Parameters<Store['purgeWorkspace']>[0]): ReturnType<Store['purgeWorkspace']> {
    return this.transaction(() => purgeWorkspace(this.sql, purge));
  }

  abstract close(): Promise<void>;
}
