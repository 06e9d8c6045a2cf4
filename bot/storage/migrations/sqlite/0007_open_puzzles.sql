-- Decision puzzles (issue 17): the puzzle open in each channel, so that a restart restores it (its answers are in
-- puzzle_answers) and reveals it on time. One per channel; the reveal deletes it with the answers' marking.
CREATE TABLE open_puzzles (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    puzzle_id  TEXT NOT NULL UNIQUE,
    spot_key   TEXT NOT NULL,
    language   TEXT NOT NULL,
    posted_at  REAL NOT NULL
);
