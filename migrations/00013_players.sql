-- +goose Up
-- Players, their sessions and API tokens, and every attempt at a puzzle
-- (docs/players.md).
--
-- A player exists from the first play, anonymous (name NULL, no password);
-- signing up names it. Names are unique whatever their case. password is an
-- argon2id hash in the PHC string form ($argon2id$v=19$m=...,t=...,p=...$
-- salt$hash); role is for the moderation to come. skill is the players'
-- model's figure (1.0 a typical player). attempts, solved and gave_up count
-- the player's attempts, and streak the days in a row up to streak_day
-- (YYYY-MM-DD, UTC) on which the player solved that day's puzzle of the
-- day: the store keeps them (and player_grades, player_techniques) in the
-- transaction that starts or finishes an attempt, so that a player's
-- dashboard costs the same however long their history.
CREATE TABLE players (
    id         INTEGER PRIMARY KEY,
    name       TEXT,
    password   TEXT,
    role       TEXT    NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'moderator', 'admin')),
    skill      REAL    NOT NULL DEFAULT 1.0,
    created_at INTEGER NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    gave_up    INTEGER NOT NULL DEFAULT 0,
    streak     INTEGER NOT NULL DEFAULT 0,
    streak_day TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE UNIQUE INDEX players_name ON players (lower(name)) WHERE name IS NOT NULL;

-- A session is a browser's: the cookie carries a random token, the table
-- only its SHA-256, so a copy of the database opens no session. Every
-- server sharing the archive reads the same rows.
CREATE TABLE sessions (
    token_hash BLOB    PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX sessions_player ON sessions (player_id);

-- API tokens (sudoku user token): only their SHA-256 is kept.
CREATE TABLE tokens (
    token_hash BLOB    PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX tokens_player ON tokens (player_id);

-- Failed logins by name (lower case), for the throttle: five within 15
-- minutes refuse that name until the window passes. Names that exist and
-- names that don't are counted alike.
CREATE TABLE login_failures (
    name_key TEXT    NOT NULL,
    at       INTEGER NOT NULL
) STRICT;
CREATE INDEX login_failures_name ON login_failures (name_key, at);

-- An attempt: opened when the board opens (started_at, the server's clock,
-- unix nanoseconds), finished once (finished_at, outcome, seconds and the
-- counts). class_key is the puzzle's canonical key, so that first (the
-- player's first finished attempt at any way of writing the puzzle) is one
-- index probe. techniques lists the technique of each hint taken, one name
-- a line. At most one open attempt per player and puzzle.
CREATE TABLE attempts (
    id          INTEGER PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id),
    class_key   BLOB    NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    outcome     TEXT    NOT NULL DEFAULT 'open' CHECK (outcome IN ('open', 'solved', 'gave_up')),
    seconds     INTEGER NOT NULL DEFAULT 0 CHECK (seconds >= 0),
    hints       INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0),
    checks      INTEGER NOT NULL DEFAULT 0 CHECK (checks >= 0),
    mistakes    INTEGER NOT NULL DEFAULT 0 CHECK (mistakes >= 0),
    first       INTEGER NOT NULL DEFAULT 0 CHECK (first IN (0, 1)),
    techniques  TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE UNIQUE INDEX attempts_open ON attempts (player_id, puzzle_id) WHERE outcome = 'open';
CREATE INDEX attempts_player ON attempts (player_id, id);
CREATE INDEX attempts_class ON attempts (player_id, class_key) WHERE outcome <> 'open';
CREATE INDEX attempts_puzzle ON attempts (puzzle_id);

-- A player's solves by the puzzles' grade (tenths; 0 ungraded): how many,
-- their seconds summed, the fastest and the slowest.
CREATE TABLE player_grades (
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    grade     INTEGER NOT NULL,
    solves    INTEGER NOT NULL,
    seconds   INTEGER NOT NULL,
    fastest   INTEGER NOT NULL,
    slowest   INTEGER NOT NULL,
    PRIMARY KEY (player_id, grade)
) STRICT, WITHOUT ROWID;

-- A player's hints by technique, and give-ups by the puzzle's hardest
-- technique.
CREATE TABLE player_techniques (
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    technique TEXT    NOT NULL,
    hints     INTEGER NOT NULL DEFAULT 0,
    gave_up   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, technique)
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE player_techniques;
DROP TABLE player_grades;
DROP TABLE attempts;
DROP TABLE login_failures;
DROP TABLE tokens;
DROP TABLE sessions;
DROP TABLE players;
