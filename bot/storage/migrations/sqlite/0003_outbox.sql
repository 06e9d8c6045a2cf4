-- The durable outbox (docs/outbox.md): the messages a committed change owes Discord, written in the change's own
-- transaction and marked delivered once sent. `key` is unique and is the Discord message nonce of a post, so that
-- a row delivered again after a crash is not posted twice. `payload` is the table service's JSON of the message.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id     INTEGER NOT NULL REFERENCES poker_tables (id),
    key          TEXT NOT NULL UNIQUE,
    payload      TEXT NOT NULL,
    created_at   REAL NOT NULL,
    delivered_at REAL
);
CREATE INDEX outbox_pending ON outbox (table_id, id) WHERE delivered_at IS NULL;
