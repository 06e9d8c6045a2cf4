-- 0001: the initial schema: settings, accounts, the chip ledger, tables, hands, standings.
-- Times are Unix seconds (REAL); JSON columns hold TEXT written by bot.storage; chips are INTEGER.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- One row per server that changed something; NULL means "the bot's configured default".
CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    language          TEXT CHECK (language IN ('en', 'fr')),
    starting_grant    INTEGER CHECK (starting_grant >= 0),
    refill_cooldown_s INTEGER CHECK (refill_cooldown_s >= 0),
    table_defaults    TEXT NOT NULL DEFAULT '{}',
    updated_at        REAL NOT NULL
);

CREATE TABLE accounts (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    balance        INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    created_at     REAL NOT NULL,
    last_refill_at REAL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE poker_tables (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id    INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('cash', 'tournament')),
    settings   TEXT NOT NULL,
    state      TEXT,
    message_id INTEGER,
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at REAL NOT NULL,
    closed_at  REAL
);
CREATE UNIQUE INDEX poker_tables_one_open_per_channel ON poker_tables (channel_id) WHERE status = 'open';
CREATE INDEX poker_tables_guild ON poker_tables (guild_id, status);

-- The chips on a table: a cash table's stacks are balance chips (see the ledger); a tournament's are not.
CREATE TABLE table_seats (
    table_id INTEGER NOT NULL REFERENCES poker_tables (id),
    seat     INTEGER NOT NULL CHECK (seat >= 1),
    user_id  INTEGER NOT NULL,
    stack    INTEGER NOT NULL CHECK (stack >= 0),
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id)
);

CREATE TABLE hands (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id   INTEGER NOT NULL REFERENCES poker_tables (id),
    number     INTEGER NOT NULL,
    started_at REAL NOT NULL,
    ended_at   REAL,
    record     TEXT NOT NULL,
    result     TEXT,
    UNIQUE (table_id, number)
);
CREATE UNIQUE INDEX hands_one_open_per_table ON hands (table_id) WHERE ended_at IS NULL;

CREATE TABLE hand_actions (
    hand_id    INTEGER NOT NULL REFERENCES hands (id),
    seq        INTEGER NOT NULL,
    action     TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (hand_id, seq)
);

CREATE TABLE hand_players (
    hand_id          INTEGER NOT NULL REFERENCES hands (id),
    user_id          INTEGER NOT NULL,
    seat             INTEGER NOT NULL,
    player_index     INTEGER NOT NULL,
    starting_stack   INTEGER NOT NULL CHECK (starting_stack >= 0),
    final_stack      INTEGER,
    net              INTEGER,
    won              INTEGER NOT NULL DEFAULT 0,
    showed           INTEGER NOT NULL DEFAULT 0,
    vpip             INTEGER NOT NULL DEFAULT 0,
    pfr              INTEGER NOT NULL DEFAULT 0,
    went_to_showdown INTEGER NOT NULL DEFAULT 0,
    won_at_showdown  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (hand_id, user_id)
);
CREATE INDEX hand_players_user ON hand_players (user_id);

-- Append-only: every chip that enters or leaves a member's balance.
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    delta         INTEGER NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('grant', 'refill', 'buy_in', 'rebuy', 'cash_out',
                                                'tournament_entry', 'tournament_prize', 'refund', 'adjustment')),
    reason        TEXT NOT NULL DEFAULT '',
    table_id      INTEGER REFERENCES poker_tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    created_at    REAL NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
);
CREATE INDEX ledger_account ON ledger (guild_id, user_id, id);
CREATE INDEX ledger_table ON ledger (table_id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TABLE tournament_places (
    table_id INTEGER NOT NULL REFERENCES poker_tables (id),
    user_id  INTEGER NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),
    PRIMARY KEY (table_id, user_id),
    UNIQUE (table_id, place)
);
