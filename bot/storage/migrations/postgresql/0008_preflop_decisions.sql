-- /stats' VPIP and PFR are rates of the hands with a preflop decision. See sqlite/0008.
ALTER TABLE hand_players ADD COLUMN preflop_decision SMALLINT NOT NULL DEFAULT 1;
