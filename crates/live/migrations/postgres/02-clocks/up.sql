-- Both clocks as of the last change (not counting the turn under way): a game that ended on time
-- keeps the fallen clock at zero, which the last move's clocks cannot say.
ALTER TABLE games ADD COLUMN red_ms BIGINT;
ALTER TABLE games ADD COLUMN blue_ms BIGINT;
