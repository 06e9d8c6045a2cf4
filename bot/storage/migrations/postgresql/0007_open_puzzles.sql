-- Decision puzzles (issue 17): the puzzle open in each channel. See sqlite/0007.
CREATE TABLE open_puzzles (
    channel_id BIGINT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    puzzle_id  TEXT NOT NULL UNIQUE,
    spot_key   TEXT NOT NULL,
    language   TEXT NOT NULL,
    posted_at  DOUBLE PRECISION NOT NULL
);
