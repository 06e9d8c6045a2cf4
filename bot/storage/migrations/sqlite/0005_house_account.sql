-- The house (issue 17): computer players at cash tables buy in from the server's house account (user id 0),
-- an account outside every member's balance. Chips the house lacks are issued to it as 'house_issue' rows,
-- which count as issued in the audit. SQLite cannot change a CHECK constraint: the ledger is rebuilt.
DROP TRIGGER ledger_no_update;
DROP TRIGGER ledger_no_delete;
CREATE TABLE ledger_house (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    delta         INTEGER NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('grant', 'refill', 'buy_in', 'rebuy', 'cash_out',
                                                'tournament_entry', 'tournament_prize', 'refund', 'adjustment',
                                                'house_issue')),
    reason        TEXT NOT NULL DEFAULT '',
    table_id      INTEGER REFERENCES poker_tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    created_at    REAL NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
);
INSERT INTO ledger_house (id, guild_id, user_id, delta, kind, reason, table_id, hand_id, balance_after, created_at)
    SELECT id, guild_id, user_id, delta, kind, reason, table_id, hand_id, balance_after, created_at FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_house RENAME TO ledger;
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
