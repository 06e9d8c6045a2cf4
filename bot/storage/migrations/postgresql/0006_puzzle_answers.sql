-- Decision puzzles (issue 17): each member's answers, one per puzzle posted. See sqlite/0005.
CREATE TABLE puzzle_answers (
    guild_id    BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    puzzle_id   TEXT NOT NULL,
    spot_key    TEXT NOT NULL,
    answer      TEXT NOT NULL CHECK (answer IN ('fold', 'call', 'raise')),
    favoured    INTEGER CHECK (favoured IN (0, 1)),
    answered_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
);
CREATE INDEX puzzle_answers_member ON puzzle_answers (guild_id, user_id);
