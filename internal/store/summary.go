package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// Summary returns player's dashboard figures (account.Summary) from one
// read transaction; today ends the streak. The counts, times by grade and
// techniques are the figures kept by each finish (figures), so the cost
// does not grow with the player's history.
func (db *DB) Summary(ctx context.Context, player int64, today time.Time) (account.Summary, error) {
	var s account.Summary
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return s, fmt.Errorf("summary of player %d: %w", player, err)
	}
	defer tx.Rollback()
	var streak int
	var day string
	err = tx.QueryRow(db.d.sql("SELECT attempts, solved, gave_up, streak, streak_day FROM players WHERE id = ?"), player).
		Scan(&s.Attempts, &s.Solved, &s.GaveUp, &streak, &day)
	if err != nil {
		return s, fmt.Errorf("summary of player %d: %w", player, notFound(err))
	}
	if d := today.UTC(); day == d.Format(time.DateOnly) || day == d.AddDate(0, 0, -1).Format(time.DateOnly) {
		s.Streak = streak
	}
	for _, step := range []func(*sql.Tx, int64, *account.Summary) error{db.summaryGrades, db.summaryTechniques, db.summaryTryAgain, db.summarySkills} {
		if err := step(tx, player, &s); err != nil {
			return s, fmt.Errorf("summary of player %d: %w", player, err)
		}
	}
	return s, tx.Commit()
}

func (db *DB) summaryGrades(tx *sql.Tx, player int64, s *account.Summary) error {
	rows, err := tx.Query(db.d.sql("SELECT grade, solves, seconds, fastest, slowest FROM player_grades WHERE player_id = ? ORDER BY grade"), player)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g account.GradeTimes
		var sum int64
		if err := rows.Scan(&g.Grade, &g.Solves, &sum, &g.Fastest, &g.Slowest); err != nil {
			return err
		}
		g.Mean = float64(sum) / float64(max(1, g.Solves))
		s.ByGrade = append(s.ByGrade, g)
	}
	return rows.Err()
}

// summaryTechniques reads the techniques of the player's hints and the
// hardest techniques of the puzzles they gave up, most often first.
func (db *DB) summaryTechniques(tx *sql.Tx, player int64, s *account.Summary) error {
	rows, err := tx.Query(db.d.sql("SELECT technique, hints, gave_up FROM player_techniques WHERE player_id = ? "+
		"ORDER BY hints + gave_up DESC, technique"), player)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t account.TechniqueCount
		if err := rows.Scan(&t.Name, &t.Hints, &t.GaveUp); err != nil {
			return err
		}
		s.Techniques = append(s.Techniques, t)
	}
	return rows.Err()
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

// The upserts of a player's figures by grade and by technique.
const (
	gradeUpsert = "INSERT INTO player_grades (player_id, grade, solves, seconds, fastest, slowest) VALUES (?1, ?2, 1, ?3, ?3, ?3) " +
		"ON CONFLICT (player_id, grade) DO UPDATE SET solves = player_grades.solves + 1, seconds = player_grades.seconds + excluded.seconds, " +
		"fastest = CASE WHEN excluded.fastest < player_grades.fastest THEN excluded.fastest ELSE player_grades.fastest END, " +
		"slowest = CASE WHEN excluded.slowest > player_grades.slowest THEN excluded.slowest ELSE player_grades.slowest END"
	techniqueUpsert = "INSERT INTO player_techniques (player_id, technique, hints, gave_up) VALUES (?, ?, ?, ?) " +
		"ON CONFLICT (player_id, technique) DO UPDATE SET hints = player_techniques.hints + excluded.hints, gave_up = player_techniques.gave_up + excluded.gave_up"
)

// figures brings the player's figures up to date with the finished
// attempt a at the puzzle of class key: counts, times by grade, techniques
// and the daily streak. It runs in the finish's transaction, so the
// dashboard reads them instead of the whole history.
func (f *finisher) figures(a account.Attempt, key []byte, now time.Time) error {
	hints := map[string]int64{}
	for _, t := range a.Techniques {
		hints[t]++
	}
	for _, t := range slices.Sorted(maps.Keys(hints)) {
		if _, err := f.technique.Exec(a.PlayerID, t, hints[t], 0); err != nil {
			return err
		}
	}
	if a.Outcome == account.OutcomeGaveUp {
		if _, err := f.gaveUp.Exec(a.PlayerID); err != nil {
			return err
		}
		if a.Technique != "" {
			_, err := f.technique.Exec(a.PlayerID, a.Technique, 0, 1)
			return err
		}
		return nil
	}
	var streak int64
	var day string
	if err := f.solved.QueryRow(a.PlayerID).Scan(&streak, &day); err != nil {
		return err
	}
	if _, err := f.grade.Exec(a.PlayerID, a.Grade, a.Seconds); err != nil {
		return err
	}
	var date string
	err := f.daily.QueryRow(key).Scan(&date)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	today := now.UTC().Format(time.DateOnly)
	if date != today || day == today {
		return nil // not today's puzzle of the day, or counted already
	}
	if day == now.UTC().AddDate(0, 0, -1).Format(time.DateOnly) {
		streak++
	} else {
		streak = 1
	}
	_, err = f.streak.Exec(streak, today, a.PlayerID)
	return err
}

// summarySkills reads the skill the player's last counted attempts left
// (attempts.skill, 0 where none was kept), by the player's attempts'
// index from the newest: a bounded walk whatever the history's length.
func (db *DB) summarySkills(tx *sql.Tx, player int64, s *account.Summary) error {
	rows, err := tx.Query(db.d.sql("SELECT finished_at, skill FROM attempts WHERE player_id = ? AND counted = 1 AND skill > 0 "+
		"ORDER BY id DESC LIMIT ?"), player, account.MaxSkillPoints)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var at int64
		var p account.SkillPoint
		if err := rows.Scan(&at, &p.Skill); err != nil {
			return err
		}
		p.At = time.Unix(0, at).UTC()
		s.Skills = append(s.Skills, p)
	}
	// In the order they finished (ids are the order they started).
	slices.SortStableFunc(s.Skills, func(a, b account.SkillPoint) int { return a.At.Compare(b.At) })
	return rows.Err()
}
