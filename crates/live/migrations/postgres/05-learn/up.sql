-- Learning from the engine: games analysed on request, and the puzzles' and players' ratings.
-- Times are ms since the Unix epoch.
-- The same schema as SQLite's (migrations/sqlite/05-learn), in PostgreSQL's types.

-- Each analysis asked for, from its request to its result. `key` names what was analysed, so
-- that asking twice gives the same analysis: `game:ID` for a live game, `import:HASH` for an
-- imported command list (the hash of its FEN, commands and nodes).
CREATE TABLE analyses (
    id          TEXT PRIMARY KEY NOT NULL,
    key         TEXT NOT NULL UNIQUE,
    game_id     TEXT,
    -- The position the game starts from, NULL for the official start.
    fen         TEXT,
    -- The official commands, as a JSON array of strings.
    commands    TEXT NOT NULL,
    nodes       BIGINT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    -- The analysis, as JSON, once done; the reason, once failed.
    result      TEXT,
    error       TEXT,
    created_at  BIGINT NOT NULL,
    started_at  BIGINT,
    finished_at BIGINT
);

CREATE INDEX analyses_queue ON analyses (state, created_at);

-- Each puzzle's Glicko-2 rating once a signed-in player has tried it.
CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT PRIMARY KEY NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   BIGINT NOT NULL,
    solved     BIGINT NOT NULL
);

-- Each signed-in player's puzzle rating.
CREATE TABLE puzzle_players (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   BIGINT NOT NULL,
    solved     BIGINT NOT NULL
);

-- A player's first attempt at each puzzle (the one rated), with the rating it left: the
-- player's rating history.
CREATE TABLE puzzle_attempts (
    user_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL,
    at        BIGINT NOT NULL,
    solved    BOOLEAN NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);

CREATE INDEX puzzle_attempts_by_time ON puzzle_attempts (user_id, at);
