-- Players who bust in the same tournament hand with equal stacks at its start share a place (the card-room
-- rule; the rule books are silent): a place is no longer unique per tournament, a player still is.
CREATE TABLE tournament_places_shared (
    table_id INTEGER NOT NULL REFERENCES poker_tables (id),
    user_id  INTEGER NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),
    PRIMARY KEY (table_id, user_id)
);
INSERT INTO tournament_places_shared (table_id, user_id, place) SELECT table_id, user_id, place FROM tournament_places;
DROP TABLE tournament_places;
ALTER TABLE tournament_places_shared RENAME TO tournament_places;
-- Only the winner's place stays unique: one player holds every chip at the end.
CREATE UNIQUE INDEX tournament_places_one_winner ON tournament_places (table_id) WHERE place = 1;
