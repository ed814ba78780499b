-- Every live game: its seats, time control, state and end. Times are ms since the Unix epoch.
-- The same schema as SQLite's (migrations/sqlite/01-games), in PostgreSQL's types.
CREATE TABLE games (
    id           TEXT PRIMARY KEY NOT NULL,
    red_token    TEXT NOT NULL,
    blue_token   TEXT NOT NULL,
    red_name     TEXT,
    blue_name    TEXT,
    initial_ms   BIGINT,
    increment_ms BIGINT,
    status       TEXT NOT NULL CHECK (status IN ('ongoing', 'over')),
    winner       TEXT CHECK (winner IN ('red', 'blue')),
    reason       TEXT,
    draw_offer   TEXT CHECK (draw_offer IN ('red', 'blue')),
    takeback     TEXT CHECK (takeback IN ('red', 'blue')),
    plies        BIGINT NOT NULL DEFAULT 0,
    version      BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);

-- Ids compare byte by byte, as in SQLite, whatever the database's collation.
CREATE INDEX games_by_creation ON games (created_at DESC, id COLLATE "C");

-- Every move of every game, with the time it took and both clocks after it.
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       BIGINT NOT NULL,
    command   TEXT NOT NULL,
    took_ms   BIGINT NOT NULL,
    played_at BIGINT NOT NULL,
    red_ms    BIGINT,
    blue_ms   BIGINT,
    PRIMARY KEY (game_id, ply)
);
