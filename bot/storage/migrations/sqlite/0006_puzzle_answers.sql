-- Decision puzzles (issue 17): each member's answers, one per puzzle posted (a puzzle is a spot posted in a channel).
CREATE TABLE puzzle_answers (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    puzzle_id   TEXT NOT NULL,
    spot_key    TEXT NOT NULL,
    answer      TEXT NOT NULL CHECK (answer IN ('fold', 'call', 'raise')),
    favoured    INTEGER CHECK (favoured IN (0, 1)),
    answered_at REAL NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
);
CREATE INDEX puzzle_answers_member ON puzzle_answers (guild_id, user_id);
