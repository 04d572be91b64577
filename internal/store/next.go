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
	"strings"

	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
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
// class), with that difficulty; ties go to the lower id. record.ErrNotFound
// when no class qualifies.
//
// It never reads the whole archive: the classes with player_seconds are
// walked in puzzles_band_player_seconds from exp(target) up and down, and
// the others in puzzles_band_grade from the grade whose prior is target,
// a few rows each way per band, skipping the rows the player played (the
// played filter's seeks, played.go).
func (db *DB) NextPuzzle(ctx context.Context, player int64, target float64) (record.Puzzle, float64, error) {
	tx, prior, err := db.nextTx(ctx, target)
	if err != nil {
		return record.Puzzle{}, 0, err
	}
	defer tx.Rollback()
	cands, err := db.ratedCandidates(ctx, tx, player, target)
	if err != nil {
		return record.Puzzle{}, 0, err
	}
	more, err := db.priorCandidates(ctx, tx, player, target, prior)
	if err != nil {
		return record.Puzzle{}, 0, err
	}
	cands = append(cands, more...)
	return db.nearest(ctx, tx, cands, target)
}

// nextUnplayed is the condition that player (?, twice) has no attempt at
// the row's class, finished or open: the played filter's (played.go),
// with the open attempts found through attempts_open (the player's open
// attempts, a few) instead of all the player's attempts, which SQLite's
// planner otherwise walks for every row it considers.
const nextUnplayed = "NOT EXISTS (SELECT 1 FROM attempts WHERE player_id = ? AND " + playedClass + " AND outcome <> 'open')" +
	" AND NOT EXISTS (SELECT 1 FROM attempts WHERE player_id = ? AND puzzle_id > 0 AND outcome = 'open' AND " + playedClass + ")"

// nextWalk builds one statement of a walk of NextPuzzle: for each band,
// the nextPerArm rows nearest the bound on each side, in the band's index
// (puzzles_band_<key>), each arm a seek; every arm takes the bound and the
// player twice. The columns are the row's id, its class's difficulty (NULL
// without a class_ratings row) and its key, then 1 for the rows above the
// bound and 0 for those below. Two statements, prepared once (stmtOf),
// instead of one per band and side: preparing cost more than the seeks.
func nextWalk(key, above, below, where string) string {
	var arms []string
	for band := range sudoku.Bands {
		for _, side := range []struct {
			cmp, order string
			up         int
		}{{above, "", 1}, {below, " DESC", 0}} {
			arms = append(arms, fmt.Sprintf("SELECT * FROM (SELECT puzzles.id, class_ratings.difficulty, %[1]s, %[6]d AS up FROM puzzles"+
				" LEFT JOIN class_ratings ON class_ratings.class_key = %[2]s WHERE band = %[3]d AND %[4]s AND %[5]s AND same_as IS NULL AND "+visible+" AND %[7]s"+
				" ORDER BY %[1]s%[8]s, puzzles.id%[8]s LIMIT %[9]d) AS arm%[3]d_%[6]d",
				key, nextClass, band, side.cmp, where, side.up, nextUnplayed, side.order, nextPerArm))
		}
	}
	return strings.Join(arms, " UNION ALL ")
}

// The two walks: the classes with player_seconds from exp(target)'s
// seconds, and the others (player_seconds 0) from the grade whose prior is
// target, in tenths.
var (
	nextRatedWalk = nextWalk("player_seconds", "player_seconds >= ?", "player_seconds < ?", "player_seconds > 0")
	nextPriorWalk = nextWalk("grade", "grade >= ?", "grade < ?", "player_seconds = 0")
)

// nextWalkArgs are the arguments of a walk's statement: the bound and the
// player twice, for each arm.
func nextWalkArgs(bound, player int64) []any {
	var args []any
	for range 2 * len(sudoku.Bands) {
		args = append(args, bound, player, player)
	}
	return args
}

// ratedCandidates walks the classes that show player_seconds, from the
// seconds of target up and down in each band; their difficulty is their
// class_ratings row's (every class with player_seconds has one).
func (db *DB) ratedCandidates(ctx context.Context, tx *sql.Tx, player int64, target float64) ([]nextCandidate, error) {
	secs := int64(math.Round(math.Exp(min(target, 30))))
	return db.ratedWalk(ctx, tx, nextRatedWalk, nextWalkArgs(secs, player))
}

// ratedWalk runs a walk of the rated classes (q, with args) and returns
// its rows as candidates.
func (db *DB) ratedWalk(ctx context.Context, tx *sql.Tx, q string, args []any) ([]nextCandidate, error) {
	rows, err := db.walk(ctx, tx, q, args)
	if err != nil {
		return nil, err
	}
	var out []nextCandidate
	for _, r := range rows {
		if r.b.Valid {
			out = append(out, nextCandidate{id: r.id, b: r.b.Float64})
		}
	}
	return out, nil
}

// priorCandidates walks the graded classes without player_seconds in
// grade order from the grade whose prior is target, up and down: the
// nearest nextPerArm on each side over all bands. A class with counted
// plays (fewer than ratings.MinPlays) takes its class_ratings difficulty,
// the others the prior of their grade.
func (db *DB) priorCandidates(ctx context.Context, tx *sql.Tx, player int64, target float64, prior ratings.Prior) ([]nextCandidate, error) {
	tenths := int64(math.Round(walkTenths(prior, target)))
	tenths = min(max(tenths, 1), 1000)
	return db.priorWalk(ctx, tx, nextPriorWalk, nextWalkArgs(tenths, player), prior, true)
}

// walkTenths is the grade, in tenths and unrounded, whose prior is b: the
// bound a walk in grade order starts from.
func walkTenths(prior ratings.Prior, b float64) float64 {
	walk := prior
	if walk.Beta <= 0 { // a prior that does not grow with the grade: walk from the default's grade
		walk = ratings.DefaultPrior
	}
	return (b - walk.Alpha) / walk.Beta * 10
}

// priorWalk runs a walk of the unrated classes in grade order (q, with
// args) and returns the nearest nextPerArm on each side of its bound over
// all bands as candidates: each at its class_ratings difficulty when
// partial (a class with a few plays, fewer than ratings.MinPlays) is
// true, at the prior of its grade otherwise.
func (db *DB) priorWalk(ctx context.Context, tx *sql.Tx, q string, args []any, prior ratings.Prior, partial bool) ([]nextCandidate, error) {
	rows, err := db.walk(ctx, tx, q, args)
	if err != nil {
		return nil, err
	}
	// Each side's nearest, over the bands: by grade, then id, away from
	// the bound.
	slices.SortFunc(rows, func(x, y walkRow) int {
		if x.up != y.up {
			return cmp.Compare(x.up, y.up)
		}
		if x.up == 1 {
			return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.id, y.id))
		}
		return cmp.Or(cmp.Compare(y.key, x.key), cmp.Compare(y.id, x.id))
	})
	var out []nextCandidate
	taken := [2]int{}
	for _, r := range rows {
		if taken[r.up] == nextPerArm {
			continue
		}
		taken[r.up]++
		c := nextCandidate{id: r.id, b: prior.Of(r.key)}
		if r.b.Valid && partial {
			c.b = r.b.Float64
		}
		out = append(out, c)
	}
	return out, nil
}

// walkRow is a row of a walk's statement.
type walkRow struct {
	id  int64
	b   sql.NullFloat64
	key int64
	up  int
}

// walk runs a walk's statement, prepared once for the archive.
func (db *DB) walk(ctx context.Context, tx *sql.Tx, q string, args []any) ([]walkRow, error) {
	st, err := db.stmtOf(ctx, tx, query{sql: db.d.sql(q)})
	if err != nil {
		return nil, fmt.Errorf("next puzzle: %w", err)
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("next puzzle: %w", err)
	}
	defer rows.Close()
	var out []walkRow
	for rows.Next() {
		var r walkRow
		if err := rows.Scan(&r.id, &r.b, &r.key, &r.up); err != nil {
			return nil, fmt.Errorf("next puzzle: %w", err)
		}
		out = append(out, r)
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
func (db *DB) RatedPuzzles(ctx context.Context, fn func(record.RatedPuzzle) error) (int64, error) {
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
	const cols = "SELECT id, backtracks, solve_ns, clues, grade, technique, coalesce((SELECT plays FROM puzzle_figures WHERE puzzle_id = puzzles.id), 0), player_seconds FROM puzzles WHERE "
	var all []record.RatedPuzzle
	for band := -1; band < len(sudoku.Bands); band++ {
		q, args := cols+"band IS NULL AND player_seconds > 0 AND same_as IS NULL AND "+visible, []any(nil)
		if band >= 0 {
			q, args = cols+"band = ? AND player_seconds > 0 AND same_as IS NULL AND "+visible, []any{band}
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
	slices.SortFunc(all, func(x, y record.RatedPuzzle) int { return cmp.Compare(x.ID, y.ID) })
	for _, r := range all {
		if err := fn(r); err != nil {
			return played, err
		}
	}
	return played, nil
}

// ratedRows reads rows of RatedPuzzles' query.
func ratedRows(ctx context.Context, tx *sql.Tx, q string, args []any) ([]record.RatedPuzzle, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("rated puzzles: %w", err)
	}
	defer rows.Close()
	var out []record.RatedPuzzle
	for rows.Next() {
		var r record.RatedPuzzle
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

// nextTx checks target and opens the read transaction of a next-puzzle
// walk, with the prior it places unrated classes by.
func (db *DB) nextTx(ctx context.Context, target float64) (*sql.Tx, ratings.Prior, error) {
	if db.isClosed() {
		return nil, ratings.Prior{}, ErrClosed
	}
	if math.IsNaN(target) || math.IsInf(target, 0) {
		return nil, ratings.Prior{}, fmt.Errorf("next puzzle: target %v is no difficulty", target)
	}
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return nil, ratings.Prior{}, fmt.Errorf("next puzzle: %w", err)
	}
	prior, err := priorIn(ctx, tx, db.d)
	if err != nil {
		tx.Rollback()
		return nil, ratings.Prior{}, err
	}
	return tx, prior, nil
}

// nearest is the candidate nearest target (the lower id on a tie), read
// whole, and its difficulty; it commits tx.
func (db *DB) nearest(ctx context.Context, tx *sql.Tx, cands []nextCandidate, target float64) (record.Puzzle, float64, error) {
	if len(cands) == 0 {
		return record.Puzzle{}, 0, fmt.Errorf("next puzzle: %w", record.ErrNotFound)
	}
	best := slices.MinFunc(cands, func(x, y nextCandidate) int {
		return cmp.Or(cmp.Compare(math.Abs(x.b-target), math.Abs(y.b-target)), cmp.Compare(x.id, y.id))
	})
	p, err := scanPuzzle(tx.StmtContext(ctx, db.getStmt).QueryRowContext(ctx, best.id).Scan)
	if err != nil {
		return record.Puzzle{}, 0, fmt.Errorf("next puzzle %d: %w", best.id, err)
	}
	return p, best.b, tx.Commit()
}
