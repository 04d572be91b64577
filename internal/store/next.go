package store

// next.go holds the reads behind the players' figures of the web: the
// next puzzle at a player's level (GET /api/next) and the rated classes of
// the ratings page (GET /ratings). Both read the model's numbers that
// ratings.go keeps (migration 00014); neither writes.

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// nextPerArm is how many candidates each walk of NextPuzzle takes, on
// each side of the target: the nearest by the walk's own order, whose
// exact difficulty is then compared.
const nextPerArm = 3

// nextCandidate is a class NextPuzzle may choose: its first entry and its
// difficulty.
type nextCandidate struct {
	id int64
	b  float64
}

// nextClass is the class key of a puzzles row, as attempts.class_key
// holds it; the class's difficulty is its class_ratings row's, or the
// prior of its grade while it has none.
const nextClass = "coalesce(puzzles.canonical_key, puzzles.givens_key)"

// NextPuzzle returns the first entry of the puzzle class whose difficulty
// (the model's b: class_ratings.difficulty, or the prior of its grade for
// a class without a counted play) is nearest target, among the graded
// classes (a grade, hence one solution; band not NULL) that player has no
// attempt at, open or finished, in any way of writing them (player 0: any
// class), with that difficulty; ties go to the lower id. sudoku.ErrNotFound
// when no class qualifies.
//
// It never reads the whole archive: the classes with player_seconds are
// walked in puzzles_band_player_seconds from exp(target) up and down, and
// the others in puzzles_band_grade from the grade whose prior is target,
// a few rows each way per band, skipping the rows the player played (the
// played filter's seeks, played.go).
func (db *DB) NextPuzzle(ctx context.Context, player int64, target float64) (sudoku.Puzzle, float64, error) {
	if db.isClosed() {
		return sudoku.Puzzle{}, 0, ErrClosed
	}
	if math.IsNaN(target) || math.IsInf(target, 0) {
		return sudoku.Puzzle{}, 0, fmt.Errorf("next puzzle: target %v is no difficulty", target)
	}
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return sudoku.Puzzle{}, 0, fmt.Errorf("next puzzle: %w", err)
	}
	defer tx.Rollback()
	prior, err := priorIn(ctx, tx, db.d)
	if err != nil {
		return sudoku.Puzzle{}, 0, err
	}
	cands, err := db.ratedCandidates(ctx, tx, player, target)
	if err != nil {
		return sudoku.Puzzle{}, 0, err
	}
	more, err := db.priorCandidates(ctx, tx, player, target, prior)
	if err != nil {
		return sudoku.Puzzle{}, 0, err
	}
	cands = append(cands, more...)
	if len(cands) == 0 {
		return sudoku.Puzzle{}, 0, fmt.Errorf("next puzzle: %w", sudoku.ErrNotFound)
	}
	best := slices.MinFunc(cands, func(x, y nextCandidate) int {
		return cmp.Or(cmp.Compare(math.Abs(x.b-target), math.Abs(y.b-target)), cmp.Compare(x.id, y.id))
	})
	p, err := scanPuzzle(tx.QueryRowContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE id = ?"), best.id).Scan)
	if err != nil {
		return sudoku.Puzzle{}, 0, fmt.Errorf("next puzzle %d: %w", best.id, err)
	}
	return p, best.b, tx.Commit()
}

// nextWhere is what every walk of NextPuzzle asks of a row besides its
// key: the class's first entry, and none of player's attempts at it.
func nextWhere(player int64) (string, []any) {
	if player == 0 {
		return "same_as IS NULL", nil
	}
	return "same_as IS NULL AND " + playedNothing, []any{player, player}
}

// ratedCandidates walks the classes that show player_seconds, per band,
// from the seconds of target up and down; their difficulty is their
// class_ratings row's.
func (db *DB) ratedCandidates(ctx context.Context, tx *sql.Tx, player int64, target float64) ([]nextCandidate, error) {
	secs := int64(math.Round(math.Exp(min(target, 30))))
	where, args := nextWhere(player)
	const sel = "SELECT puzzles.id, class_ratings.difficulty FROM puzzles JOIN class_ratings ON class_ratings.class_key = " + nextClass
	up := sel + " WHERE band = ? AND player_seconds >= ? AND " + where + " ORDER BY player_seconds, puzzles.id LIMIT ?"
	down := sel + " WHERE band = ? AND player_seconds > 0 AND player_seconds < ? AND " + where + " ORDER BY player_seconds DESC, puzzles.id DESC LIMIT ?"
	var out []nextCandidate
	for band := range sudoku.Bands {
		for _, q := range []string{up, down} {
			got, err := nextRows(ctx, tx, db.d.sql(q), append(append([]any{band, secs}, args...), nextPerArm), nil)
			if err != nil {
				return nil, err
			}
			out = append(out, got...)
		}
	}
	return out, nil
}

// priorCandidates walks the graded classes without player_seconds in
// grade order from the grade whose prior is target, up and down, band by
// band until each side has its candidates; a class with counted plays
// (fewer than ratings.MinPlays) takes its class_ratings difficulty, the
// others their prior.
func (db *DB) priorCandidates(ctx context.Context, tx *sql.Tx, player int64, target float64, prior ratings.Prior) ([]nextCandidate, error) {
	beta := prior.Beta
	if beta <= 0 { // a prior that does not grow with the grade: walk from the default's grade
		prior = ratings.DefaultPrior
		beta = prior.Beta
	}
	tenths := int64(math.Round((target - prior.Alpha) / beta * 10))
	tenths = min(max(tenths, 1), 1000)
	start := sudoku.BandOf(tenths).Rank()
	where, args := nextWhere(player)
	const sel = "SELECT puzzles.id, class_ratings.difficulty, grade FROM puzzles LEFT JOIN class_ratings ON class_ratings.class_key = " + nextClass
	up := sel + " WHERE band = ? AND grade >= ? AND player_seconds = 0 AND " + where + " ORDER BY grade, puzzles.id LIMIT ?"
	down := sel + " WHERE band = ? AND grade < ? AND player_seconds = 0 AND " + where + " ORDER BY grade DESC, puzzles.id DESC LIMIT ?"
	var out []nextCandidate
	for _, side := range []struct {
		q    string
		step int
	}{{up, 1}, {down, -1}} {
		found := 0
		for band := start; band >= 0 && band < len(sudoku.Bands) && found < nextPerArm; band += side.step {
			got, err := nextRows(ctx, tx, db.d.sql(side.q), append(append([]any{band, tenths}, args...), nextPerArm-found), &prior)
			if err != nil {
				return nil, err
			}
			found += len(got)
			out = append(out, got...)
		}
	}
	return out, nil
}

// nextRows reads a walk's candidates: id and difficulty, and with prior
// the grade too, whose prior stands in for a missing difficulty.
func nextRows(ctx context.Context, tx *sql.Tx, q string, args []any, prior *ratings.Prior) ([]nextCandidate, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("next puzzle: %w", err)
	}
	defer rows.Close()
	var out []nextCandidate
	for rows.Next() {
		var c nextCandidate
		var b sql.NullFloat64
		var tenths int64
		dest := []any{&c.id, &b}
		if prior != nil {
			dest = append(dest, &tenths)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("next puzzle: %w", err)
		}
		c.b = b.Float64
		if !b.Valid && prior != nil {
			c.b = prior.Of(tenths)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("next puzzle: %w", err)
	}
	return out, nil
}

// UsualSeconds returns the median seconds of player's last window counted
// solves (counted attempts solved: first finished attempts at a class, not
// in practice), newest first by id, and how many there were; 0, 0 for
// none. It reads the player's attempts backwards in attempts_player.
func (db *DB) UsualSeconds(ctx context.Context, player int64, window int) (float64, int, error) {
	if db.isClosed() {
		return 0, 0, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, db.d.sql("SELECT seconds FROM attempts WHERE player_id = ? AND counted = 1 AND outcome = 'solved' ORDER BY id DESC LIMIT ?"), player, window)
	if err != nil {
		return 0, 0, fmt.Errorf("usual seconds: %w", err)
	}
	defer rows.Close()
	var secs []int64
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			return 0, 0, fmt.Errorf("usual seconds: %w", err)
		}
		secs = append(secs, s)
	}
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("usual seconds: %w", err)
	}
	if len(secs) == 0 {
		return 0, 0, nil
	}
	slices.Sort(secs)
	n := len(secs)
	if n%2 == 1 {
		return float64(secs[n/2]), n, nil
	}
	return float64(secs[n/2-1]+secs[n/2]) / 2, n, nil
}

// RatedPuzzles calls fn for the first entry of every class that shows
// player_seconds (ratings.MinPlays counted plays or more), in id order,
// with its machine measures, from one read transaction; it returns how
// many classes have a counted play. The rows are found band by band (and
// those without a band) in puzzles_band_player_seconds, not by reading the
// whole archive.
func (db *DB) RatedPuzzles(ctx context.Context, fn func(sudoku.RatedPuzzle) error) (int64, error) {
	if db.isClosed() {
		return 0, ErrClosed
	}
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return 0, fmt.Errorf("rated puzzles: %w", err)
	}
	defer tx.Rollback()
	var played int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM class_ratings WHERE plays > 0").Scan(&played); err != nil {
		return 0, fmt.Errorf("rated puzzles: %w", err)
	}
	const cols = "SELECT id, backtracks, solve_ns, clues, grade, technique, plays, player_seconds FROM puzzles WHERE "
	var all []sudoku.RatedPuzzle
	for band := -1; band < len(sudoku.Bands); band++ {
		q, args := cols+"band IS NULL AND player_seconds > 0 AND same_as IS NULL", []any(nil)
		if band >= 0 {
			q, args = cols+"band = ? AND player_seconds > 0 AND same_as IS NULL", []any{band}
		}
		got, err := ratedRows(ctx, tx, db.d.sql(q), args)
		if err != nil {
			return 0, err
		}
		all = append(all, got...)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("rated puzzles: %w", err)
	}
	slices.SortFunc(all, func(x, y sudoku.RatedPuzzle) int { return cmp.Compare(x.ID, y.ID) })
	for _, r := range all {
		if err := fn(r); err != nil {
			return played, err
		}
	}
	return played, nil
}

// ratedRows reads rows of RatedPuzzles' query.
func ratedRows(ctx context.Context, tx *sql.Tx, q string, args []any) ([]sudoku.RatedPuzzle, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("rated puzzles: %w", err)
	}
	defer rows.Close()
	var out []sudoku.RatedPuzzle
	for rows.Next() {
		var r sudoku.RatedPuzzle
		var clues int64
		if err := rows.Scan(&r.ID, &r.Backtracks, &r.SolveNS, &clues, &r.GradeTenths, &r.Technique, &r.Plays, &r.PlayerSeconds); err != nil {
			return nil, fmt.Errorf("rated puzzles: %w", err)
		}
		r.Clues = int(clues)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rated puzzles: %w", err)
	}
	return out, nil
}
