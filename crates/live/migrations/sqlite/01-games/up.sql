-- Every live game: its seats, time control, state and end. Times are ms since the Unix epoch.
CREATE TABLE games (
    id           TEXT PRIMARY KEY NOT NULL,
    red_token    TEXT NOT NULL,
    blue_token   TEXT NOT NULL,
    red_name     TEXT,
    blue_name    TEXT,
    initial_ms   INTEGER,
    increment_ms INTEGER,
    status       TEXT NOT NULL CHECK (status IN ('ongoing', 'over')),
    winner       TEXT CHECK (winner IN ('red', 'blue')),
    reason       TEXT,
    draw_offer   TEXT CHECK (draw_offer IN ('red', 'blue')),
    takeback     TEXT CHECK (takeback IN ('red', 'blue')),
    plies        INTEGER NOT NULL DEFAULT 0,
    version      INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);

CREATE INDEX games_by_creation ON games (created_at DESC, id);

-- Every move of every game, with the time it took and both clocks after it.
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    command   TEXT NOT NULL,
    took_ms   INTEGER NOT NULL,
    played_at INTEGER NOT NULL,
    red_ms    INTEGER,
    blue_ms   INTEGER,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
