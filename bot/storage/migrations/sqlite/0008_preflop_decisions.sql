-- /stats' VPIP and PFR are rates of the hands in which the player was asked to act before the flop (not a walk:
-- bot/poker/statistics.py). Hands stored before this migration were not told apart: they count as asked.
ALTER TABLE hand_players ADD COLUMN preflop_decision INTEGER NOT NULL DEFAULT 1;
