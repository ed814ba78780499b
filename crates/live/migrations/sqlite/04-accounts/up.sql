-- Accounts: players with a name, a password hash, sessions and ratings. Times are ms since the
-- Unix epoch.
CREATE TABLE users (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    -- The name in lowercase: names are unique without regard to case.
    name_key   TEXT NOT NULL UNIQUE,
    -- The Argon2id hash in PHC form ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
    password   TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- The sessions signed in: the SHA-256 of each session id (never the id itself), its CSRF token,
-- when it began and until when it lasts.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX sessions_by_user ON sessions (user_id);

-- Each player's Glicko-2 rating per category, once rated there, and when last rated.
CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT NOT NULL CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    played_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, category)
) WITHOUT ROWID;

CREATE INDEX ratings_by_category ON ratings (category, played_at);

-- The games paired in the lobby: the account at each seat (NULL for an anonymous player or a
-- deleted account), whether the game is rated, its category, and whether its end was settled
-- (the ratings updated, in the transaction that stored the end).
CREATE TABLE pairings (
    game_id   TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    red_user  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    blue_user INTEGER REFERENCES users (id) ON DELETE SET NULL,
    rated     INTEGER NOT NULL CHECK (rated IN (0, 1)),
    category  TEXT NOT NULL,
    settled   INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1))
) WITHOUT ROWID;

CREATE INDEX pairings_by_red ON pairings (red_user);
CREATE INDEX pairings_by_blue ON pairings (blue_user);

-- Each rating after each rated game, with the change the game made.
CREATE TABLE rating_history (
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game_id   TEXT NOT NULL,
    category  TEXT NOT NULL,
    at        INTEGER NOT NULL,
    rating    REAL NOT NULL,
    deviation REAL NOT NULL,
    change    REAL NOT NULL,
    PRIMARY KEY (user_id, game_id)
) WITHOUT ROWID;

CREATE INDEX rating_history_by_time ON rating_history (user_id, category, at);
