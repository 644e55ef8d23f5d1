/**
 * Versioned schema. `MIGRATIONS[i]` takes the database from `user_version` i to i + 1; entries are append-only
 * (never edit a shipped step: add a new one). Each step runs in its own transaction together with the version bump.
 * Tables are not STRICT on purpose: times are JS numbers and may be fractional (a computed poll delay); they
 * must round-trip rather than be rejected.
 */
import type { Migration } from './migrations.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'initial schema',
    sql: `
      -- A member's API key, AES-256-GCM encrypted with the user address as additional data;
      -- secret_key_id fingerprints the secret key it was sealed with (to report a changed key clearly).
      CREATE TABLE linked_keys (
        user          TEXT PRIMARY KEY,
        secret_key_id TEXT NOT NULL,
        iv            BLOB NOT NULL,
        tag        BLOB NOT NULL,
        ciphertext BLOB NOT NULL,
        key_prefix TEXT NOT NULL,
        team_id    TEXT NOT NULL,
        team_name  TEXT NOT NULL,
        linked_at  INTEGER NOT NULL
      );

      CREATE TABLE user_prefs (
        user        TEXT PRIMARY KEY,
        time_zone   TEXT,
        last_video  TEXT,
        last_series TEXT
      );

      CREATE TABLE channel_settings (
        conversation TEXT PRIMARY KEY,
        settings     TEXT NOT NULL,
        updated_at   INTEGER NOT NULL
      );

      CREATE TABLE subscriptions (
        conversation TEXT NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('calendar', 'series', 'videos')),
        target       TEXT NOT NULL,
        owner        TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        PRIMARY KEY (conversation, kind, target)
      );

      CREATE TABLE watches (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL,
        target        TEXT NOT NULL,
        owner         TEXT NOT NULL,
        conversation  TEXT NOT NULL,
        card_key      TEXT,
        state         TEXT NOT NULL,
        next_check_at INTEGER NOT NULL,
        created_at    INTEGER NOT NULL,
        expires_at    INTEGER NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('active', 'done', 'expired'))
      );
      CREATE INDEX watches_due ON watches (status, next_check_at);
      CREATE INDEX watches_target ON watches (kind, target, status);

      CREATE TABLE cards (
        key          TEXT PRIMARY KEY,
        conversation TEXT NOT NULL,
        message      TEXT,
        card         TEXT NOT NULL,
        model        TEXT NOT NULL DEFAULT '{}',
        updated_at   INTEGER NOT NULL
      );

      -- item is NULL once delivered: the row only remembers its dedupe key until pruned.
      CREATE TABLE outbox (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        platform     TEXT NOT NULL,
        dedupe_key   TEXT NOT NULL UNIQUE,
        item         TEXT,
        status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts     INTEGER NOT NULL DEFAULT 0,
        not_before   INTEGER NOT NULL,
        created_at   INTEGER NOT NULL,
        finished_at  INTEGER,
        error        TEXT
      );
      CREATE INDEX outbox_pending ON outbox (platform, id) WHERE status = 'pending';
      CREATE INDEX outbox_finished ON outbox (status, finished_at);

      CREATE TABLE idempotency_keys (
        action     TEXT PRIMARY KEY,
        key        TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

      CREATE TABLE approvals (
        id           TEXT PRIMARY KEY,
        conversation TEXT NOT NULL,
        requester    TEXT NOT NULL,
        action       TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'failed')),
        card_key     TEXT NOT NULL,
        decided_by   TEXT,
        decided_at   INTEGER,
        reason       TEXT,
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER
      );
      CREATE INDEX approvals_expiring ON approvals (status, expires_at);

      CREATE TABLE audit (
        id           INTEGER PRIMARY KEY,
        at           INTEGER NOT NULL,
        conversation TEXT NOT NULL,
        actor        TEXT NOT NULL,
        action       TEXT NOT NULL,
        video_id     TEXT,
        series_id    TEXT,
        credits      REAL,
        details      TEXT
      );
      CREATE INDEX audit_at ON audit (at);
      CREATE INDEX audit_video ON audit (video_id, at);
    `,
  },
  {
    name: 'chat app installations and post journal',
    sql: `
      -- OAuth installations of a chat app (one per Slack workspace or enterprise), the SDK's JSON sealed with
      -- AES-256-GCM like linked keys (the id is the additional data): they hold bot tokens.
      CREATE TABLE installations (
        id            TEXT PRIMARY KEY,
        secret_key_id TEXT NOT NULL,
        iv            BLOB NOT NULL,
        tag           BLOB NOT NULL,
        ciphertext    BLOB NOT NULL,
        updated_at    INTEGER NOT NULL
      );

      -- Posts an adapter started, by the outbox dedupe id: after a crash between the platform accepting a post
      -- and the outbox marking it done, the adapter looks for that message instead of posting it twice.
      CREATE TABLE chat_deliveries (
        dedupe_id    TEXT PRIMARY KEY,
        conversation TEXT NOT NULL,
        message      TEXT,
        started_at   INTEGER NOT NULL
      );
      CREATE INDEX chat_deliveries_started ON chat_deliveries (started_at);
    `,
  },
  {
    name: 'watches by owner and by card',
    sql: `
      -- Unlinking a key counts what follows with it; a status command asks whether a card still has a watch.
      -- With 10,000 active watches a scan of them blocked the event loop for ~240 ms per command.
      CREATE INDEX watches_owner ON watches (owner, status);
      CREATE INDEX watches_card ON watches (card_key, status);
    `,
  },
  {
    name: 'workspace policies',
    sql: `
      -- One governance policy per workspace (slack:T1, discord:G1): every conversation of it inherits it,
      -- channels only tighten it (their channel_settings row). JSON written by the store only.
      CREATE TABLE workspace_policies (
        workspace  TEXT PRIMARY KEY,
        policy     TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    name: 'pending remote effects',
    sql: `
      -- A remote write (create, publish, schedule, series generate) between its request and the local commit
      -- that records it: written before the request, deleted by that commit. A row that outlives both (a failed
      -- commit, a crash) is replayed later with the same idempotency key, so the service answers the stored
      -- response and the card and watch are attached after all. JSON written by the core only.
      CREATE TABLE pending_effects (
        idempotency_key TEXT PRIMARY KEY,
        command         TEXT NOT NULL,
        args            TEXT NOT NULL,
        request         TEXT NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        last_error      TEXT,
        created_at      INTEGER NOT NULL,
        next_at         INTEGER NOT NULL
      );
      CREATE INDEX pending_effects_due ON pending_effects (next_at);
    `,
  },
  {
    name: 'one card state per video',
    sql: `
      -- The one state of a subject's card (a video: progress, thumbnails and the pick, render, posts), which
      -- every conversation showing it renders (its cards rows, keyed 'video:<id>@<conversation>'). Existing
      -- video cards seed it with the newest of their models (the id is the key less '@<conversation>': an
      -- id may hold an '@'); each card then keeps only what a projection keeps (which video, since when).
      CREATE TABLE card_states (
        subject    TEXT PRIMARY KEY,
        model      TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      INSERT OR IGNORE INTO card_states (subject, model, updated_at)
        SELECT substr(key, 1, length(key) - length(conversation) - 1), model, updated_at FROM cards
        WHERE key LIKE 'video:%' AND substr(key, length(key) - length(conversation)) = '@' || conversation
        ORDER BY updated_at DESC;
      UPDATE cards SET model = json_object(
          'projectionOf', substr(key, 7, length(key) - length(conversation) - 7), 'since', updated_at)
        WHERE key LIKE 'video:%' AND substr(key, length(key) - length(conversation)) = '@' || conversation;
      -- One watch per video from now on: of the generation and render watches kept per conversation, the
      -- oldest goes on (it finds the video's one state through its card); the others stop.
      UPDATE watches SET status = 'done'
        WHERE status = 'active' AND kind IN ('generation', 'render') AND EXISTS (
          SELECT 1 FROM watches AS w WHERE w.status = 'active' AND w.kind = watches.kind
            AND w.target = watches.target
            AND (w.created_at < watches.created_at OR (w.created_at = watches.created_at AND w.id < watches.id)));
    `,
  },
  {
    name: 'watch leases',
    sql: `
      -- Which poller checks a watch right now, and until when (Store.watches.claim): on SQLite one process
      -- holds the database, but the poller runs the same protocol on both stores.
      ALTER TABLE watches ADD COLUMN lease_holder TEXT;
      ALTER TABLE watches ADD COLUMN lease_until REAL;
    `,
  },
  {
    name: 'user_address columns',
    sql: `
      -- The name PostgreSQL gives these columns (USER is reserved there), so one statement serves both
      -- databases (src/store/tables).
      ALTER TABLE linked_keys RENAME COLUMN user TO user_address;
      ALTER TABLE user_prefs RENAME COLUMN user TO user_address;
    `,
  },
  {
    name: 'fenced claims',
    sql: `
      -- Every claim of a watch or an outbox row bumps its token: a commit or a send under an
      -- older claim, one that lapsed while its replica was paused, is refused.
      ALTER TABLE watches ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE outbox ADD COLUMN claim_token INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    name: 'interaction state',
    sql: `
      -- What a chat adapter keeps between interactions (src/store/tables/interactions.ts): JSON by key until
      -- expires_at (epoch ms); sealed = 1 when value is sealed with the secret key (a credential).
      CREATE TABLE interaction_state (
        id         TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        sealed     INTEGER NOT NULL DEFAULT 0,
        expires_at REAL NOT NULL
      );
      CREATE INDEX interaction_state_expiry ON interaction_state (expires_at);
    `,
  },
  {
    name: 'notify preference',
    sql: `
      -- How a member is pinged when their video is ready or fails, or their scheduled post fails (\`notify\`):
      -- 'mention' (in the channel), 'dm', or 'off'; NULL is the default, a mention.
      ALTER TABLE user_prefs ADD COLUMN notify TEXT;
    `,
  },
  {
    name: 'subscription filters',
    sql: `
      -- \`subscribe … --platform P --status S --by @member\` as JSON; NULL (every row before) follows everything.
      ALTER TABLE subscriptions ADD COLUMN filters TEXT;
    `,
  },
  {
    name: 'digests',
    sql: `
      -- \`subscribe digest daily|weekly\`: a fourth subscription kind (SQLite changes a CHECK only by copying the
      -- table), and one row per digest period sent, claimed with the outbox row that carries it
      -- (src/store/tables/digests.ts). period: the day the digest was due, YYYY-MM-DD in its zone.
      CREATE TABLE subscriptions_digests (
        conversation TEXT NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('calendar', 'series', 'videos', 'digest')),
        target       TEXT NOT NULL,
        owner        TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        filters      TEXT,
        PRIMARY KEY (conversation, kind, target)
      );
      INSERT INTO subscriptions_digests (conversation, kind, target, owner, created_at, filters)
        SELECT conversation, kind, target, owner, created_at, filters FROM subscriptions;
      DROP TABLE subscriptions;
      ALTER TABLE subscriptions_digests RENAME TO subscriptions;
      CREATE TABLE digests_sent (
        conversation TEXT NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('daily', 'weekly')),
        period       TEXT NOT NULL,
        sent_at      INTEGER NOT NULL,
        PRIMARY KEY (conversation, kind, period)
      );
    `,
  },
  {
    name: 'approval stages',
    sql: `
      -- Stages (\`settings approval stages brand,legal\`): the stage a request waits at and its round (one more
      -- each time it is sent again after Request changes), and the 'changes' status. SQLite cannot change a
      -- CHECK, so the table is copied; rows before stay at stage 0 of round 0, as they were.
      CREATE TABLE approvals_next (
        id           TEXT PRIMARY KEY,
        conversation TEXT NOT NULL,
        requester    TEXT NOT NULL,
        action       TEXT NOT NULL,
        status       TEXT NOT NULL
          CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'failed', 'changes')),
        card_key     TEXT NOT NULL,
        decided_by   TEXT,
        decided_at   INTEGER,
        reason       TEXT,
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER,
        stage        INTEGER NOT NULL DEFAULT 0,
        round        INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO approvals_next (id, conversation, requester, action, status, card_key, decided_by,
          decided_at, reason, created_at, expires_at)
        SELECT id, conversation, requester, action, status, card_key, decided_by, decided_at, reason,
          created_at, expires_at FROM approvals;
      DROP TABLE approvals;
      ALTER TABLE approvals_next RENAME TO approvals;
      CREATE INDEX approvals_expiring ON approvals (status, expires_at);

      -- Each approver's Approve at a stage of a round, once (an All stage moves on when every listed
      -- approver is covered); covers: the stage's references (people, groups) the voter answers for, JSON.
      CREATE TABLE approval_votes (
        approval_id TEXT NOT NULL,
        round       INTEGER NOT NULL,
        stage       INTEGER NOT NULL,
        voter       TEXT NOT NULL,
        covers      TEXT NOT NULL,
        at          INTEGER NOT NULL,
        PRIMARY KEY (approval_id, round, stage, voter)
      );
    `,
  },
];
