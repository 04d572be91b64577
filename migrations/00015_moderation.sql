-- +goose Up
-- Moderation (docs/moderation.md): flags on puzzles, hidden puzzles,
-- and the audit trail.
--
-- puzzles.hidden is 1 while a moderator has the puzzle hidden: every read
-- of puzzles in the store leaves such rows out (store.visible, see
-- docs/moderation.md), and the counters (counts, stat_buckets,
-- grade_counts) do not count them, so totals stay exact. Adding a column
-- with a constant default rewrites no row.
ALTER TABLE puzzles ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;

-- Who hid a puzzle, when and why; class_key is the puzzle's canonical key
-- (its givens key when it has none), so that a submission of any way of
-- writing a hidden puzzle is refused with the reason. A row exists exactly
-- while puzzles.hidden is 1. hidden_by is kept when the moderator's
-- account goes (the audit names them).
CREATE TABLE hidden_puzzles (
    puzzle_id INTEGER PRIMARY KEY REFERENCES puzzles (id) ON DELETE CASCADE,
    class_key BLOB    NOT NULL,
    hidden_by INTEGER,
    hidden_at INTEGER NOT NULL,
    reason    TEXT    NOT NULL
) STRICT;
CREATE INDEX hidden_puzzles_class ON hidden_puzzles (class_key);

-- A flag: a player's report of a puzzle, once per player and puzzle. It
-- stays open until a moderator hides the puzzle (status hidden) or
-- dismisses its flags (dismissed); resolved_by and resolved_at say who and
-- when. A player's flags go with the player's account.
CREATE TABLE flags (
    id          INTEGER PRIMARY KEY,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    player_id   INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    reason      TEXT    NOT NULL CHECK (reason IN ('wrong', 'duplicate', 'offensive', 'copyright', 'other')),
    text        TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'hidden', 'dismissed')),
    resolved_by INTEGER,
    resolved_at INTEGER
) STRICT;
CREATE UNIQUE INDEX flags_once ON flags (puzzle_id, player_id);
CREATE INDEX flags_open ON flags (puzzle_id, id) WHERE status = 'open';
CREATE INDEX flags_player ON flags (player_id);

-- The audit trail: every moderation act, role change, token issued and
-- account deleted. Entries name the actor and the subject by id and by
-- name as they were (no foreign keys: an entry outlives both), so the
-- trail reads the same after accounts and puzzles are gone. via is where
-- the act came from: api, page or cli (the command line, actor_id NULL).
-- The app only inserts: the triggers refuse an UPDATE or DELETE.
CREATE TABLE audit (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,
    actor_id    INTEGER,
    actor_name  TEXT    NOT NULL DEFAULT '',
    via         TEXT    NOT NULL CHECK (via IN ('api', 'page', 'cli')),
    action      TEXT    NOT NULL,
    puzzle_id   INTEGER,
    player_id   INTEGER,
    player_name TEXT    NOT NULL DEFAULT '',
    reason      TEXT    NOT NULL DEFAULT '',
    detail      TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX audit_puzzle ON audit (puzzle_id) WHERE puzzle_id IS NOT NULL;

-- +goose StatementBegin
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN
    SELECT RAISE(ABORT, 'audit entries are never changed');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN
    SELECT RAISE(ABORT, 'audit entries are never removed');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER audit_no_delete;
DROP TRIGGER audit_no_update;
DROP TABLE audit;
DROP TABLE flags;
DROP TABLE hidden_puzzles;
ALTER TABLE puzzles DROP COLUMN hidden;
