-- A finished game's rematch: the seat whose offer stands, and the new game once both agreed (the
-- same two seat tokens, the colours swapped).
ALTER TABLE games ADD COLUMN rematch_offer TEXT;
ALTER TABLE games ADD COLUMN rematch TEXT;
