/**
 * The PostgreSQL schema: the same tables, keys, unique constraints and indexes as the SQLite schema
 * (src/store/sqlite-schema.ts), in PostgreSQL's types. Versioned and forward-only like SQLite's: `MIGRATIONS[i]`
 * takes the database from version i to i + 1, entries are append-only (never edit a shipped step: add one),
 * and each applied step is recorded as a row of `schema_version`. Step 1 is SQLite's schema version 6 (no
 * PostgreSQL database predates it); a later SQLite step gets its twin here (the version numbers differ).
 *
 * Types, and why:
 * - Times (epoch milliseconds) are DOUBLE PRECISION, not BIGINT: they are JS numbers and may be fractional (a
 *   computed poll delay; the Store contract "keeps fractional times as given"). A float8 holds every JS number
 *   exactly and the driver returns it as a number; BIGINT rejects 1700000000000.5 and comes back as a string.
 * - JSON is `json`, not `jsonb` nor TEXT: `json` keeps the text the store wrote byte for byte, like SQLite's TEXT
 *   (key order preserved, so a hash of a stored card stays the same after a round trip); unlike TEXT it is
 *   validated on write and has the `->>` operators the outbox and purge queries need (`item ->> 'cardKey'`). It
 *   has no equality operator: never DISTINCT/UNION rows with it. It stores the `\u0000` escape JSON.stringify
 *   writes for a NUL, but `->>` then refuses the whole document (PostgreSQL text holds no NUL), so the store
 *   writes NUL in free text as U+FFFD (see the tables' writers).
 * - Row ids (outbox, audit) are BIGINT identities (SQLite's 64-bit rowids), never reused. The driver returns
 *   int8 as a string: the store reads them as numbers (safe up to 2^53) with a type parser or a cast.
 * - Secrets are BYTEA (SQLite BLOB); counters INTEGER; credits DOUBLE PRECISION (SQLite REAL).
 * - The column SQLite called `user` is `user_address` here: USER is a reserved word in PostgreSQL, and an
 *   unquoted `WHERE user = $1` compiles to `current_user = $1` and silently matches nothing. SQLite renamed
 *   it too (its step 'user_address columns'), so the tables' statements name it alike.
 *
 * Collation: every column holding an address (`slack:T1:C1`, `discord:G1:U1`) or a key built from addresses
 * (cards' `video:<id>@<conversation>`) is COLLATE "C". The store finds a workspace's rows by the range
 * `> 'slack:T1:' AND < 'slack:T1;'` and a video's cards by `key >= prefix AND key < prefix || U+10FFFF`, which
 * is right only in byte (code point) order, SQLite's BINARY order. A database's default collation is usually a
 * language's (en_US, ICU en-US): it sorts case-insensitively first ('slack:t1:C1' falls inside the range of
 * 'slack:T1') or ignores punctuation, and a B-tree in that collation cannot serve a range in byte order. With
 * "C" on the column, the comparison, the ORDER BY and the primary key index all use byte order, whatever the
 * database's default. Columns only ever compared by equality keep the default.
 */
import type { Migration } from '../migrations.js';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    name: 'initial schema (SQLite schema version 6)',
    sql: `
      -- A member's API key, AES-256-GCM encrypted with the user address as additional data;
      -- secret_key_id fingerprints the secret key it was sealed with (to report a changed key clearly).
      CREATE TABLE linked_keys (
        user_address  TEXT COLLATE "C" PRIMARY KEY,
        secret_key_id TEXT NOT NULL,
        iv            BYTEA NOT NULL,
        tag           BYTEA NOT NULL,
        ciphertext    BYTEA NOT NULL,
        key_prefix    TEXT NOT NULL,
        team_id       TEXT NOT NULL,
        team_name     TEXT NOT NULL,
        linked_at     DOUBLE PRECISION NOT NULL
      );

      CREATE TABLE user_prefs (
        user_address TEXT COLLATE "C" PRIMARY KEY,
        time_zone    TEXT,
        last_video   TEXT,
        last_series  TEXT
      );

      CREATE TABLE channel_settings (
        conversation TEXT COLLATE "C" PRIMARY KEY,
        settings     JSON NOT NULL,
        updated_at   DOUBLE PRECISION NOT NULL
      );

      -- A workspace's subscriptions: a range on the primary key's first column.
      CREATE TABLE subscriptions (
        conversation TEXT COLLATE "C" NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('calendar', 'series', 'videos')),
        target       TEXT NOT NULL,
        owner        TEXT COLLATE "C" NOT NULL,
        created_at   DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (conversation, kind, target)
      );

      CREATE TABLE watches (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL,
        target        TEXT NOT NULL,
        owner         TEXT COLLATE "C" NOT NULL,
        conversation  TEXT COLLATE "C" NOT NULL,
        card_key      TEXT COLLATE "C",
        state         JSON NOT NULL,
        next_check_at DOUBLE PRECISION NOT NULL,
        created_at    DOUBLE PRECISION NOT NULL,
        expires_at    DOUBLE PRECISION NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('active', 'done', 'expired'))
      );
      -- due(): active watches by next_check_at (and the leased claims that will replace it).
      CREATE INDEX watches_due ON watches (status, next_check_at);
      -- findActive / findActiveIn / activeWhere({kind, target}).
      CREATE INDEX watches_target ON watches (kind, target, status);
      -- Unlinking a key counts what follows with it (and a workspace purge's owner range);
      -- a status command asks whether a card still has a watch.
      CREATE INDEX watches_owner ON watches (owner, status);
      CREATE INDEX watches_card ON watches (card_key, status);

      -- withPrefix(): a range on the primary key (see Collation above).
      CREATE TABLE cards (
        key          TEXT COLLATE "C" PRIMARY KEY,
        conversation TEXT COLLATE "C" NOT NULL,
        message      TEXT,
        card         JSON NOT NULL,
        model        JSON NOT NULL DEFAULT '{}',
        updated_at   DOUBLE PRECISION NOT NULL
      );

      -- The one state of a subject's card (a video), which every cards row 'video:<id>@<conversation>' renders;
      -- a purge drops it with the subject's last card (cards.key between subject || '@' and subject || 'A').
      CREATE TABLE card_states (
        subject    TEXT COLLATE "C" PRIMARY KEY,
        model      JSON NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
      );

      -- item is NULL once delivered: the row only remembers its dedupe key until pruned. The dedupe key is
      -- unique in the database, so a retried enqueue (from any replica) never doubles a delivery.
      CREATE TABLE outbox (
        id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        platform    TEXT NOT NULL,
        dedupe_key  TEXT NOT NULL CONSTRAINT outbox_dedupe_key UNIQUE,
        item        JSON,
        status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts    INTEGER NOT NULL DEFAULT 0,
        not_before  DOUBLE PRECISION NOT NULL,
        created_at  DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION,
        error       TEXT
      );
      -- ready(): a platform's pending rows in enqueue order.
      CREATE INDEX outbox_pending ON outbox (platform, id) WHERE status = 'pending';
      -- The prune of delivered rows by age.
      CREATE INDEX outbox_finished ON outbox (status, finished_at);

      CREATE TABLE idempotency_keys (
        action     TEXT PRIMARY KEY,
        key        TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
      );
      CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

      CREATE TABLE approvals (
        id           TEXT PRIMARY KEY,
        conversation TEXT COLLATE "C" NOT NULL,
        requester    TEXT COLLATE "C" NOT NULL,
        action       JSON NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'failed')),
        card_key     TEXT COLLATE "C" NOT NULL,
        decided_by   TEXT,
        decided_at   DOUBLE PRECISION,
        reason       TEXT,
        created_at   DOUBLE PRECISION NOT NULL,
        expires_at   DOUBLE PRECISION
      );
      -- Pending approvals expiring by a time.
      CREATE INDEX approvals_expiring ON approvals (status, expires_at);

      CREATE TABLE audit (
        id           BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        at           DOUBLE PRECISION NOT NULL,
        conversation TEXT COLLATE "C" NOT NULL,
        actor        TEXT COLLATE "C" NOT NULL,
        action       TEXT NOT NULL,
        video_id     TEXT,
        series_id    TEXT,
        credits      DOUBLE PRECISION,
        details      JSON
      );
      -- A workspace's log, newest first; and one video's.
      CREATE INDEX audit_at ON audit (at);
      CREATE INDEX audit_video ON audit (video_id, at);

      -- OAuth installations of a chat app (one per Slack workspace or enterprise), the SDK's JSON sealed with
      -- AES-256-GCM like linked keys (the id is the additional data): they hold bot tokens.
      CREATE TABLE installations (
        id            TEXT PRIMARY KEY,
        secret_key_id TEXT NOT NULL,
        iv            BYTEA NOT NULL,
        tag           BYTEA NOT NULL,
        ciphertext    BYTEA NOT NULL,
        updated_at    DOUBLE PRECISION NOT NULL
      );

      -- Posts an adapter started, by the outbox dedupe id: after a crash between the platform accepting a post
      -- and the outbox marking it done, the adapter looks for that message instead of posting it twice.
      CREATE TABLE chat_deliveries (
        dedupe_id    TEXT PRIMARY KEY,
        conversation TEXT COLLATE "C" NOT NULL,
        message      TEXT,
        started_at   DOUBLE PRECISION NOT NULL
      );
      CREATE INDEX chat_deliveries_started ON chat_deliveries (started_at);

      -- One governance policy per workspace (slack:T1, discord:G1); channels only tighten it.
      CREATE TABLE workspace_policies (
        workspace  TEXT COLLATE "C" PRIMARY KEY,
        policy     JSON NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
      );

      -- A remote write between its request and the local commit that records it (replayed with the same
      -- idempotency key if it outlives both).
      CREATE TABLE pending_effects (
        idempotency_key TEXT PRIMARY KEY,
        command         TEXT NOT NULL,
        args            JSON NOT NULL,
        request         JSON NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        last_error      TEXT,
        created_at      DOUBLE PRECISION NOT NULL,
        next_at         DOUBLE PRECISION NOT NULL
      );
      CREATE INDEX pending_effects_due ON pending_effects (next_at);
    `,
  },
  {
    name: 'leader leases (PostgreSQL only)',
    sql: `
      -- Named leader leases (src/store/postgres/leader-lease.ts): the Discord gateway session is held by the one
      -- replica whose lease has not expired. PostgreSQL only: one SQLite process is always its own leader.
      -- expires_at is TIMESTAMPTZ, not epoch ms in DOUBLE PRECISION like the store's times: it is written and
      -- compared only by the database's clock (now() + the TTL, expires_at < now()), never by a replica's, so
      -- replicas whose clocks disagree still agree on when a lease lapses; and '-infinity' marks a released one.
      -- holder is NULL once released. term is the fencing token: it grows by one whenever a tenure starts (a
      -- takeover, or an acquisition after a release or a lapse), never on a renewal; the row is kept on
      -- release so the term never goes back. acquired_at: when the current tenure started.
      CREATE TABLE leases (
        name        TEXT COLLATE "C" PRIMARY KEY,
        holder      TEXT COLLATE "C",
        term        BIGINT NOT NULL,
        expires_at  TIMESTAMPTZ NOT NULL,
        acquired_at TIMESTAMPTZ NOT NULL
      );
    `,
  },
  {
    name: 'watch leases',
    sql: `
      -- Which replica's poller checks a watch right now, and until when (Store.watches.claim); epoch ms like
      -- the store's other times, from the claiming replica's clock.
      ALTER TABLE watches ADD COLUMN lease_holder TEXT COLLATE "C";
      ALTER TABLE watches ADD COLUMN lease_until DOUBLE PRECISION;
    `,
  },
  {
    name: 'replicas',
    sql: `
      -- The replicas sharing this database and their shares of each API key's rate limits
      -- (src/replicas/postgres-registry.ts). Times are epoch ms from each replica's injected clock, like watch
      -- leases: liveness (a 6 s timeout) and the kept-after-leaving time (a rate window) dwarf clock skew, and
      -- tests and benchmarks drive the registry on the same virtual clock as the budgets it feeds.
      -- bound: the most of any rate limit (a fraction) the replica's calls may fill in a window, now or later
      -- (its use in the current window, or its share if larger). left_at: set on a clean stop; the row stays
      -- until its calls have left every window, so a replica joining meanwhile still counts them.
      CREATE TABLE replicas (
        id           TEXT COLLATE "C" PRIMARY KEY,
        started_at   DOUBLE PRECISION NOT NULL,
        heartbeat_at DOUBLE PRECISION NOT NULL,
        left_at      DOUBLE PRECISION,
        bound        DOUBLE PRECISION NOT NULL
      );
    `,
  },
  {
    name: 'fenced claims',
    sql: `
      -- Every claim of a watch or an outbox row bumps its token: a commit or a send under an
      -- older claim, one that lapsed while its replica was paused, is refused. The leases themselves are
      -- timed by this server's clock now (epoch ms of statement_timestamp()), not the claiming replica's.
      ALTER TABLE watches ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE outbox ADD COLUMN claim_token INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    name: 'interaction state',
    sql: `
      -- What a chat adapter keeps between interactions, read by whichever replica receives the next one
      -- (src/store/tables/interactions.ts): JSON by key until expires_at (epoch ms); sealed = 1 when value is
      -- sealed with the secret key (a credential).
      CREATE TABLE interaction_state (
        id         TEXT COLLATE "C" PRIMARY KEY,
        value      TEXT NOT NULL,
        sealed     INTEGER NOT NULL DEFAULT 0,
        expires_at DOUBLE PRECISION NOT NULL
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
  // `subscribe … --platform P --status S --by @member` as JSON; NULL (every row before) follows everything.
  { name: 'subscription filters', sql: 'ALTER TABLE subscriptions ADD COLUMN filters TEXT' },
  {
    name: 'digests',
    sql: `
      -- \`subscribe digest daily|weekly\`: a fourth subscription kind, and one row per digest period sent,
      -- claimed with the outbox row that carries it (src/store/tables/digests.ts). period: the day the digest
      -- was due, YYYY-MM-DD in its zone.
      ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_kind_check;
      ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_kind_check
        CHECK (kind IN ('calendar', 'series', 'videos', 'digest'));
      CREATE TABLE digests_sent (
        conversation TEXT COLLATE "C" NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('daily', 'weekly')),
        period       TEXT COLLATE "C" NOT NULL,
        sent_at      DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (conversation, kind, period)
      );
    `,
  },
  {
    name: 'approval stages',
    sql: `
      -- Stages: the stage a request waits at, its round (one more each time it is sent again after Request
      -- changes), the 'changes' status; rows before stay at stage 0 of round 0. Votes as in SQLite.
      ALTER TABLE approvals ADD COLUMN stage INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE approvals ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE approvals DROP CONSTRAINT approvals_status_check;
      ALTER TABLE approvals ADD CONSTRAINT approvals_status_check
        CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'failed', 'changes'));
      CREATE TABLE approval_votes (
        approval_id TEXT COLLATE "C" NOT NULL,
        round       INTEGER NOT NULL,
        stage       INTEGER NOT NULL,
        voter       TEXT COLLATE "C" NOT NULL,
        covers      JSON NOT NULL,
        at          DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (approval_id, round, stage, voter)
      );
    `,
  },
];
