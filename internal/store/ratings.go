package store

// ratings.go holds the players' difficulty model in the archive (package
// ratings, migration 00014): the online step each counted finish takes in
// its own transaction, the figures every puzzle of a class shows, and the
// prior the refit fits (settings row ratings_prior).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// priorName is the settings row of the fitted prior: its Alpha, Beta and
// Ungraded, space-separated, each exact (strconv 'g', -1).
const priorName = "ratings_prior"

// formatPrior writes p as the settings row holds it.
func formatPrior(p ratings.Prior) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return f(p.Alpha) + " " + f(p.Beta) + " " + f(p.Ungraded)
}

// parsePrior reads a settings row of formatPrior.
func parsePrior(s string) (ratings.Prior, error) {
	fs := strings.Fields(s)
	if len(fs) != 3 {
		return ratings.Prior{}, fmt.Errorf("prior %q: want three numbers", s)
	}
	var v [3]float64
	for i, f := range fs {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return ratings.Prior{}, fmt.Errorf("prior %q: %q is not a number", s, f)
		}
		v[i] = x
	}
	return ratings.Prior{Alpha: v[0], Beta: v[1], Ungraded: v[2]}, nil
}

// priorIn reads the prior in q (a transaction or the reader pool):
// ratings.DefaultPrior until a refit has fitted one.
func priorIn(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, d dialect) (ratings.Prior, error) {
	var v []byte
	err := q.QueryRowContext(ctx, d.sql("SELECT value FROM settings WHERE name = ?"), priorName).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return ratings.DefaultPrior, nil
	}
	if err != nil {
		return ratings.Prior{}, fmt.Errorf("read the ratings prior: %w", err)
	}
	return parsePrior(string(v))
}

// Prior returns the prior of a new class's difficulty the archive uses
// (ratings.DefaultPrior until `sudoku ratings refit` fits one).
func (db *DB) Prior(ctx context.Context) (ratings.Prior, error) {
	if db.isClosed() {
		return ratings.Prior{}, ErrClosed
	}
	return priorIn(ctx, db.reader, db.d)
}

// ClassRating returns the model's state of the class with key (a puzzle's
// canonical key, or its givens key without one, as attempts.class_key);
// ok is false before the class's first counted attempt.
func (db *DB) ClassRating(ctx context.Context, key []byte) (c ratings.Class, ok bool, err error) {
	if db.isClosed() {
		return c, false, ErrClosed
	}
	err = db.reader.QueryRowContext(ctx, db.d.sql("SELECT plays, solves, difficulty, weight, prior FROM class_ratings WHERE class_key = ?"), key).
		Scan(&c.Plays, &c.Solves, &c.Difficulty, &c.Weight, &c.Prior)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("class rating: %w", err)
	}
	return c, true, nil
}

// PlayerRating returns the model's state of player: ability (log skill)
// and how many counted attempts it rests on; record.ErrNotFound-free: an
// unknown player is a typical one with none.
func (db *DB) PlayerRating(ctx context.Context, player int64) (ratings.Player, error) {
	if db.isClosed() {
		return ratings.Player{}, ErrClosed
	}
	var skill float64
	var rated int64
	err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT skill, rated FROM players WHERE id = ?"), player).Scan(&skill, &rated)
	if errors.Is(err, sql.ErrNoRows) {
		return ratings.Player{}, nil
	}
	if err != nil {
		return ratings.Player{}, fmt.Errorf("player rating: %w", err)
	}
	return ratings.PlayerOf(skill, rated), nil
}

// A rater holds the online step's statements for one write transaction:
// on SQLite prepared once for the transaction (a group of finishes, a
// chunk of an import), on PostgreSQL run by text (pgx prepares them once
// per connection).
type rater struct {
	prior                          ratings.Prior // of new classes
	newClass, readClass, readSkill txStmt
	writeClass, writeSkill         txStmt
	countSolves, middle            txStmt
	figures                        figureWrites
}

// newRater prepares a rater in tx, with the archive's prior.
func (db *DB) newRater(tx *sql.Tx) (*rater, error) {
	r := &rater{}
	var err error
	if r.prior, err = priorIn(context.Background(), tx, db.d); err != nil {
		return nil, err
	}
	lock := ""
	if db.d.postgres {
		lock = " FOR UPDATE"
	}
	const solves = " FROM attempts WHERE class_key = ? AND counted = 1 AND outcome = 'solved'"
	for _, st := range []struct {
		dst *txStmt
		q   string
	}{
		{&r.newClass, db.d.insertIgnore + " class_ratings (class_key, difficulty, weight, prior) VALUES (?, ?, ?, ?)" + db.d.ignoreTail},
		{&r.readClass, "SELECT plays, solves, difficulty, weight, prior FROM class_ratings WHERE class_key = ?" + lock},
		{&r.readSkill, "SELECT skill, rated FROM players WHERE id = ?" + lock},
		{&r.writeClass, "UPDATE class_ratings SET plays = ?, solves = ?, difficulty = ?, weight = ? WHERE class_key = ?"},
		{&r.writeSkill, "UPDATE players SET skill = ?, rated = ? WHERE id = ?"},
		{&r.countSolves, "SELECT count(*)" + solves},
		{&r.middle, "SELECT seconds" + solves + " ORDER BY seconds LIMIT 2 OFFSET ?"},
	} {
		*st.dst = txStmt{tx: tx, q: db.d.sql(st.q)}
		if db.d.postgres {
			continue
		}
		if st.dst.st, err = tx.Prepare(st.dst.q); err != nil {
			r.close()
			return nil, fmt.Errorf("prepare the ratings: %w", err)
		}
	}
	if r.figures, err = prepareFigures(tx, db.d, !db.d.postgres); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *rater) close() {
	for _, s := range []txStmt{r.newClass, r.readClass, r.readSkill, r.writeClass, r.writeSkill, r.countSolves, r.middle} {
		if s.st != nil {
			s.st.Close()
		}
	}
	r.figures.close()
}

// rate is the online step of one counted attempt of player at the class
// key (graded tenths): it takes the class's row (made from the prior at
// the class's first counted attempt; on PostgreSQL locked with FOR
// UPDATE, so concurrent finishes of one class take turns, on SQLite the
// single writer does that), moves the class and the player by
// ratings.Update, and writes the class's figures onto every puzzle of the
// class. It returns the player's skill before and after the step.
func (r *rater) rate(player int64, key []byte, tenths int64, o ratings.Observation) (before, after float64, err error) {
	p0 := r.prior.Of(tenths)
	if _, err := r.newClass.Exec(key, p0, ratings.PriorWeight, p0); err != nil {
		return 0, 0, fmt.Errorf("rate: %w", err)
	}
	var c ratings.Class
	if err := r.readClass.QueryRow(key).Scan(&c.Plays, &c.Solves, &c.Difficulty, &c.Weight, &c.Prior); err != nil {
		return 0, 0, fmt.Errorf("rate: read the class: %w", err)
	}
	var skill float64
	var rated int64
	if err := r.readSkill.QueryRow(player).Scan(&skill, &rated); err != nil {
		return 0, 0, fmt.Errorf("rate: read the player: %w", err)
	}
	p0s := ratings.PlayerOf(skill, rated)
	c, p := ratings.Update(c, p0s, o)
	if _, err := r.writeClass.Exec(c.Plays, c.Solves, c.Difficulty, c.Weight, key); err != nil {
		return 0, 0, fmt.Errorf("rate: write the class: %w", err)
	}
	if _, err := r.writeSkill.Exec(p.Skill(), p.Rated, player); err != nil {
		return 0, 0, fmt.Errorf("rate: write the player: %w", err)
	}
	return p0s.Skill(), p.Skill(), r.showFigures(key, c)
}

// showFigures writes class c's figures (plays, solves, the median of its
// counted solves, the expected seconds) onto every puzzle of the class
// with key (figureWrites).
func (r *rater) showFigures(key []byte, c ratings.Class) error {
	median, err := r.medianSeconds(key)
	if err != nil {
		return err
	}
	if err := r.figures.write(key, c.Plays, c.Solves, median, c.Seconds()); err != nil {
		return fmt.Errorf("rate: %w", err)
	}
	return nil
}

// medianSeconds is the median seconds of the class's counted solves still
// recorded (a deleted player's or puzzle's attempts are gone, though the
// class's counts keep them), the mean of the middle two rounded up for an
// even count, 0 for none: a count and a walk of half the class's entries
// in attempts_counted_solves.
func (r *rater) medianSeconds(key []byte) (int64, error) {
	var n int64
	if err := r.countSolves.QueryRow(key).Scan(&n); err != nil {
		return 0, fmt.Errorf("rate: median: %w", err)
	}
	if n == 0 {
		return 0, nil
	}
	rows, err := r.middle.Query(key, (n-1)/2)
	if err != nil {
		return 0, fmt.Errorf("rate: median: %w", err)
	}
	defer rows.Close()
	var mid []int64
	for rows.Next() && len(mid) < 2 {
		var s int64
		if err := rows.Scan(&s); err != nil {
			return 0, fmt.Errorf("rate: median: %w", err)
		}
		mid = append(mid, s)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("rate: median: %w", err)
	}
	if n%2 == 0 && len(mid) == 2 {
		return median(mid), nil
	}
	return median(mid[:min(len(mid), 1)]), nil
}

// expSeconds is exp(b): seconds of a log time.
func expSeconds(b float64) float64 {
	return math.Exp(b)
}
