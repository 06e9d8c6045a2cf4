-- The house (issue 17): computer players at cash tables buy in from the server's house account (user id 0);
-- chips the house lacks are issued to it as 'house_issue' rows (issued, in the audit). See sqlite/0004.
ALTER TABLE ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN ('grant', 'refill', 'buy_in', 'rebuy', 'cash_out',
    'tournament_entry', 'tournament_prize', 'refund', 'adjustment', 'house_issue'));
