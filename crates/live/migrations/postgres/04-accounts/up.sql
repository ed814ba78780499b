-- Accounts: players with a name, a password hash, sessions and ratings. Times are ms since the
-- Unix epoch.
-- The same schema as SQLite's (migrations/sqlite/04-accounts), in PostgreSQL's types.
CREATE TABLE users (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       TEXT NOT NULL,
    -- The name in lowercase: names are unique without regard to case.
    name_key   TEXT NOT NULL UNIQUE,
    -- The Argon2id hash in PHC form ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
    password   TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- The sessions signed in: the SHA-256 of each session id (never the id itself), its CSRF token,
-- when it began and until when it lasts.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX sessions_by_user ON sessions (user_id);

-- Each player's Glicko-2 rating per category, once rated there, and when last rated.
CREATE TABLE ratings (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT NOT NULL CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    played_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, category)
);

CREATE INDEX ratings_by_category ON ratings (category, played_at);

-- The games paired in the lobby: the account at each seat (NULL for an anonymous player or a
-- deleted account), whether the game is rated, its category, and whether its end was settled
-- (the ratings updated, in the transaction that stored the end).
CREATE TABLE pairings (
    game_id   TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    red_user  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    blue_user BIGINT REFERENCES users (id) ON DELETE SET NULL,
    rated     BOOLEAN NOT NULL,
    category  TEXT NOT NULL,
    settled   BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE INDEX pairings_by_red ON pairings (red_user);
CREATE INDEX pairings_by_blue ON pairings (blue_user);

-- Each rating after each rated game, with the change the game made.
CREATE TABLE rating_history (
    user_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game_id   TEXT NOT NULL,
    category  TEXT NOT NULL,
    at        BIGINT NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    change    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

CREATE INDEX rating_history_by_time ON rating_history (user_id, category, at);
