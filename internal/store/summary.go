package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// Summary returns player's dashboard figures (account.Summary) from one
// read transaction; today is the date the streak ends at (YYYY-MM-DD).
// Every query is an index walk over the player's own attempts.
func (db *DB) Summary(ctx context.Context, player int64, today time.Time) (account.Summary, error) {
	var s account.Summary
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return s, fmt.Errorf("summary of player %d: %w", player, err)
	}
	defer tx.Rollback()
	for _, step := range []func(*sql.Tx, int64, *account.Summary) error{
		db.summaryCounts, db.summaryGrades, db.summaryTechniques, db.summaryTryAgain,
	} {
		if err := step(tx, player, &s); err != nil {
			return s, fmt.Errorf("summary of player %d: %w", player, err)
		}
	}
	if s.Streak, err = db.streak(tx, player, today); err != nil {
		return s, fmt.Errorf("summary of player %d: %w", player, err)
	}
	return s, tx.Commit()
}

func (db *DB) summaryCounts(tx *sql.Tx, player int64, s *account.Summary) error {
	return tx.QueryRow(db.d.sql("SELECT count(*), coalesce(sum(CASE WHEN outcome = 'solved' THEN 1 ELSE 0 END), 0), "+
		"coalesce(sum(CASE WHEN outcome = 'gave_up' THEN 1 ELSE 0 END), 0) FROM attempts WHERE player_id = ?"), player).
		Scan(&s.Attempts, &s.Solved, &s.GaveUp)
}

func (db *DB) summaryGrades(tx *sql.Tx, player int64, s *account.Summary) error {
	rows, err := tx.Query(db.d.sql("SELECT puzzles.grade, count(*), avg(attempts.seconds), min(attempts.seconds), max(attempts.seconds) "+
		"FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id WHERE attempts.player_id = ? AND attempts.outcome = 'solved' "+
		"GROUP BY puzzles.grade ORDER BY puzzles.grade"), player)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g account.GradeTimes
		if err := rows.Scan(&g.Grade, &g.Solves, &g.Mean, &g.Fastest, &g.Slowest); err != nil {
			return err
		}
		s.ByGrade = append(s.ByGrade, g)
	}
	return rows.Err()
}

// summaryTechniques counts the techniques of the player's hints and the
// hardest techniques of the puzzles they gave up.
func (db *DB) summaryTechniques(tx *sql.Tx, player int64, s *account.Summary) error {
	count := map[string]*account.TechniqueCount{}
	get := func(name string) *account.TechniqueCount {
		c := count[name]
		if c == nil {
			c = &account.TechniqueCount{Name: name}
			count[name] = c
		}
		return c
	}
	rows, err := tx.Query(db.d.sql("SELECT techniques FROM attempts WHERE player_id = ? AND techniques <> ''"), player)
	if err != nil {
		return err
	}
	for rows.Next() {
		var ts string
		if err := rows.Scan(&ts); err != nil {
			rows.Close()
			return err
		}
		for _, t := range strings.Split(ts, "\n") {
			get(t).Hints++
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = tx.Query(db.d.sql("SELECT puzzles.technique, count(*) FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id "+
		"WHERE attempts.player_id = ? AND attempts.outcome = 'gave_up' AND puzzles.technique <> '' GROUP BY puzzles.technique"), player)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return err
		}
		get(name).GaveUp += n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range count {
		s.Techniques = append(s.Techniques, *c)
	}
	slices.SortFunc(s.Techniques, func(a, b account.TechniqueCount) int {
		if d := (b.Hints + b.GaveUp) - (a.Hints + a.GaveUp); d != 0 {
			return int(max(-1, min(1, d)))
		}
		return strings.Compare(a.Name, b.Name)
	})
	return nil
}

// tryAgainMax is how many puzzles the dashboard offers to try again.
const tryAgainMax = 10

func (db *DB) summaryTryAgain(tx *sql.Tx, player int64, s *account.Summary) error {
	rows, err := tx.Query(db.d.sql("SELECT "+attemptColumns+", puzzles.grade, puzzles.technique FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id "+
		"WHERE attempts.player_id = ? AND (attempts.outcome = 'gave_up' OR attempts.outcome = 'solved' AND attempts.hints > 0) "+
		"ORDER BY attempts.id DESC LIMIT ?"), player, 5*tryAgainMax)
	if err != nil {
		return err
	}
	defer rows.Close()
	seen := map[int64]bool{}
	for rows.Next() {
		var grade int
		var technique string
		a, err := scanAttempt(rows.Scan, &grade, &technique)
		if err != nil {
			return err
		}
		if seen[a.PuzzleID] || len(s.TryAgain) == tryAgainMax {
			continue
		}
		seen[a.PuzzleID] = true
		a.Grade, a.Technique = grade, technique
		s.TryAgain = append(s.TryAgain, a)
	}
	return rows.Err()
}

// streak counts the days in a row, ending today or yesterday, on which
// player solved that day's puzzle of the day (any way of writing it).
func (db *DB) streak(tx *sql.Tx, player int64, today time.Time) (int, error) {
	rows, err := tx.Query(db.d.sql("SELECT daily.date, attempts.finished_at FROM daily JOIN attempts ON attempts.class_key = daily.canonical_key "+
		"WHERE attempts.player_id = ? AND attempts.outcome = 'solved'"), player)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	days := map[string]bool{}
	for rows.Next() {
		var date string
		var at int64
		if err := rows.Scan(&date, &at); err != nil {
			return 0, err
		}
		if time.Unix(0, at).UTC().Format(time.DateOnly) == date {
			days[date] = true
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	day := today.UTC()
	if !days[day.Format(time.DateOnly)] {
		day = day.AddDate(0, 0, -1)
	}
	n := 0
	for days[day.Format(time.DateOnly)] {
		n++
		day = day.AddDate(0, 0, -1)
	}
	return n, nil
}

// ExportPlayer returns everything stored about player: the player, when
// its sessions and tokens were made (never the tokens), and every attempt.
func (db *DB) ExportPlayer(ctx context.Context, player int64) (account.Export, error) {
	var e account.Export
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return e, fmt.Errorf("export player %d: %w", player, err)
	}
	defer tx.Rollback()
	if e.Player, err = scanPlayer(tx.QueryRow(db.d.sql("SELECT "+playerColumns+" FROM players WHERE id = ?"), player).Scan); err != nil {
		return e, fmt.Errorf("export player %d: %w", player, notFound(err))
	}
	if e.Sessions, err = dates(tx, db.d.sql("SELECT created_at, expires_at FROM sessions WHERE player_id = ? ORDER BY created_at"), player); err != nil {
		return e, fmt.Errorf("export player %d: %w", player, err)
	}
	if e.Tokens, err = dates(tx, db.d.sql("SELECT created_at, 0 FROM tokens WHERE player_id = ? ORDER BY created_at"), player); err != nil {
		return e, fmt.Errorf("export player %d: %w", player, err)
	}
	rows, err := tx.Query(db.d.sql("SELECT "+attemptColumns+" FROM attempts WHERE player_id = ? ORDER BY id"), player)
	if err != nil {
		return e, fmt.Errorf("export player %d: %w", player, err)
	}
	defer rows.Close()
	for rows.Next() {
		a, err := scanAttempt(rows.Scan)
		if err != nil {
			return e, fmt.Errorf("export player %d: %w", player, err)
		}
		e.Attempts = append(e.Attempts, a)
	}
	if err := rows.Err(); err != nil {
		return e, fmt.Errorf("export player %d: %w", player, err)
	}
	return e, tx.Commit()
}

func dates(tx *sql.Tx, q string, player int64) ([]account.Dates, error) {
	rows, err := tx.Query(q, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ds []account.Dates
	for rows.Next() {
		var c, x int64
		if err := rows.Scan(&c, &x); err != nil {
			return nil, err
		}
		d := account.Dates{Created: time.Unix(0, c).UTC()}
		if x != 0 {
			d.Expires = time.Unix(0, x).UTC()
		}
		ds = append(ds, d)
	}
	return ds, rows.Err()
}
