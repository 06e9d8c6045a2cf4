-- Players who bust in the same tournament hand with equal stacks at its start share a place (the card-room
-- rule; the rule books are silent): a place is no longer unique per tournament, a player still is.
ALTER TABLE tournament_places DROP CONSTRAINT tournament_places_table_id_place_key;
-- Only the winner's place stays unique: one player holds every chip at the end.
CREATE UNIQUE INDEX tournament_places_one_winner ON tournament_places (table_id) WHERE place = 1;
