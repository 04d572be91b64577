package store

// figures.go writes the players' figures a puzzle shows (migration 00014):
// plays, solves and the median seconds in puzzle_figures, a narrow table
// of its own (migration 00022), and player_seconds in the puzzle's row,
// where the player_time and human orders page on it. A finish rewrites
// the first every time and the row only when player_seconds changes (once
// the class has ratings.MinPlays plays), so most finishes leave the wide
// puzzles row and its indexes alone.

import (
	"database/sql"
	"fmt"
)

// classMembersSQL selects the ids (column id) of the puzzles of the class
// with key ?1: its first entry and those filed under it (same_as), or the
// puzzle of that givens key when the class has no canonical form.
const classMembersSQL = `SELECT first_id AS id FROM classes WHERE canonical_key = ?1
UNION ALL SELECT id FROM puzzles WHERE same_as = (SELECT first_id FROM classes WHERE canonical_key = ?1)
UNION ALL SELECT id FROM puzzles WHERE givens_key = ?1 AND canonical_key IS NULL AND NOT EXISTS (SELECT 1 FROM classes WHERE canonical_key = ?1)`

// figuresUpsert is the conflict clause of every write of puzzle_figures:
// the new figures replace the old.
const figuresUpsert = ` ON CONFLICT (puzzle_id) DO UPDATE SET plays = excluded.plays, solves = excluded.solves, median_seconds = excluded.median_seconds`

// figureWrites are the two statements that write a class's figures onto
// its puzzles: ?1 the class key, ?2 plays, ?3 solves, ?4 the median
// seconds (set); ?1 the class key, ?2 the expected seconds (seconds).
type figureWrites struct {
	set, seconds txStmt
}

// prepareFigures makes figureWrites in tx, prepared when prepare says so
// (by text otherwise: pgx prepares them once per connection).
func prepareFigures(tx *sql.Tx, d dialect, prepare bool) (figureWrites, error) {
	var w figureWrites
	for _, st := range []struct {
		dst *txStmt
		q   string
	}{
		{&w.set, `INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
SELECT m.id, CAST(?2 AS BIGINT), CAST(?3 AS BIGINT), CAST(?4 AS BIGINT) FROM (` + classMembersSQL + `) AS m WHERE true` + figuresUpsert},
		{&w.seconds, `UPDATE puzzles SET player_seconds = ?2 WHERE id IN (` + classMembersSQL + `) AND player_seconds <> ?2`},
	} {
		*st.dst = txStmt{tx: tx, q: d.sql(st.q)}
		if !prepare {
			continue
		}
		var err error
		if st.dst.st, err = tx.Prepare(st.dst.q); err != nil {
			w.close()
			return figureWrites{}, fmt.Errorf("prepare the figures: %w", err)
		}
	}
	return w, nil
}

func (w figureWrites) close() {
	for _, s := range []txStmt{w.set, w.seconds} {
		if s.st != nil {
			s.st.Close()
		}
	}
}

// write gives every puzzle of the class with key its figures: plays,
// solves, the median seconds and the expected seconds (0 for none). plays
// is at least 1.
func (w figureWrites) write(key []byte, plays, solves, median, seconds int64) error {
	if _, err := w.set.Exec(key, plays, solves, median); err != nil {
		return fmt.Errorf("write the puzzles' figures: %w", err)
	}
	if _, err := w.seconds.Exec(key, seconds); err != nil {
		return fmt.Errorf("write the puzzles' figures: %w", err)
	}
	return nil
}

// linkFiguresSQL gives the new rows (newRows) that joined a played class
// the figures of its first entry, as link's statement linkFigures: on
// PostgreSQL one statement; on SQLite, which has no writing CTE, the
// figures here and player_seconds in linkSecondsSQL, the statement after.
func linkFiguresSQL(d dialect) string {
	figures := `INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
SELECT puzzles.id, f.plays, f.solves, f.median_seconds FROM puzzles JOIN puzzle_figures AS f ON f.puzzle_id = puzzles.same_as
WHERE puzzles.` + d.newRows + figuresUpsert
	if !d.postgres {
		return figures
	}
	return `WITH f AS (` + figures + `)
` + linkSecondsSQL(d)
}

// linkSecondsSQL gives the new rows that joined a class with
// player_seconds its first entry's.
func linkSecondsSQL(d dialect) string {
	return `UPDATE puzzles SET player_seconds = h.player_seconds
FROM puzzles AS h WHERE puzzles.` + d.newRows + ` AND puzzles.same_as = h.id AND h.player_seconds > 0`
}
