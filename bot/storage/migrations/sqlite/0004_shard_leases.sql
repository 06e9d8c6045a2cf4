-- Shard leases (bot/storage/leases.py, docs/architecture.md "Shards and processes"): the process that holds a
-- shard's lease alone restores and runs the tables of that shard's guilds. A lease is held until `expires_at`
-- (Unix seconds) and renewed well before; another process may take it only once it has expired. `shard_count`
-- is the count the holder runs with: processes that disagree on it would own overlapping sets of guilds.
CREATE TABLE shard_leases (
    shard_id    INTEGER PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    holder      TEXT NOT NULL,
    acquired_at REAL NOT NULL,
    expires_at  REAL NOT NULL
);
