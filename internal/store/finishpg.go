package store

// finishpg.go is a finish on PostgreSQL, where every statement is a round
// trip costing both sides more CPU than most of the statements' own work:
// the steps of finisher.finish (the attempt, the first-attempt count, the
// class's rating, the player's, the median walk, the puzzles' figures, the
// player's figures) in two statements instead of about seventeen. The
// decisions stay in Go (account.Finish.Check, account.CheckSolved,
// ratings.Update, the streak), so both databases record the same.

import (
	"database/sql"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// finishReadSQL reads what a finish decides on, locking the attempt and
// the player ($1 the attempt, $2 the player): the attempt, its class key,
// its puzzle's givens, grade, technique and hidden flag, the player's
// finished attempts at the class before, the player's skill, rated count,
// streak and streak day, and the date the class was the puzzle of the day
// (” if never). No row: not the player's attempt.
const finishReadSQL = `SELECT ` + attemptColumns + `, attempts.class_key, puzzles.givens, puzzles.grade, puzzles.technique, puzzles.hidden,
    (SELECT count(*) FROM attempts b WHERE b.player_id = attempts.player_id AND b.class_key = attempts.class_key AND b.outcome <> 'open'),
    players.skill, players.rated, players.streak, players.streak_day,
    coalesce((SELECT date FROM daily WHERE daily.canonical_key = attempts.class_key), ''),
    c.plays, c.solves, c.difficulty, c.weight, c.prior,
    (SELECT value FROM settings WHERE name = '` + priorName + `')
FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id JOIN players ON players.id = attempts.player_id
LEFT JOIN LATERAL (SELECT plays, solves, difficulty, weight, prior FROM class_ratings
    WHERE class_ratings.class_key = attempts.class_key FOR UPDATE) AS c ON true
WHERE attempts.id = $1 AND attempts.player_id = $2
FOR UPDATE OF attempts, players`

// finishWriteSQL records a decided finish: the attempt ($1 id, $2-$11 its
// columns), the player's counts, skill and streak ($12 the player, $13
// solved and $14 gave-up increments, $15 skill and $16 rated when counted,
// $17 streak, $18 streak day), the player's figures by grade ($19) and by
// technique ($20-$22: names, hints, give-ups), and when counted the class's
// rating ($23 the key, $24-$27, $29 the prior of a new class; $30 is 1
// when the read found and locked the class's row) and its figures on every
// puzzle of the class ($28 the expected seconds; the median of the class's
// counted solves, this one included, as rater.medianSeconds computes it),
// as figureWrites writes them: puzzle_figures always, the puzzle's row
// only when player_seconds changes.
// It returns the attempts written (1) and the classes written (1 when
// counted; 0 when another transaction made the class's row since the read,
// errClassRaced).
const finishWriteSQL = `WITH u AS (
    UPDATE attempts SET finished_at = $2, outcome = $3, seconds = $4, hints = $5, checks = $6, mistakes = $7,
        first = $8, techniques = $9, practice = $10, counted = $11
    WHERE id = $1 AND outcome = 'open' RETURNING id),
pl AS (
    UPDATE players SET solved = solved + $13, gave_up = gave_up + $14,
        skill = CASE WHEN $11 = 1 THEN $15::double precision ELSE skill END,
        rated = CASE WHEN $11 = 1 THEN $16::bigint ELSE rated END,
        streak = $17, streak_day = $18
    WHERE id = $12),
gr AS (
    INSERT INTO player_grades (player_id, grade, solves, seconds, fastest, slowest)
    SELECT $12, $19::bigint, 1, $4, $4, $4 WHERE $3 = 'solved'
    ON CONFLICT (player_id, grade) DO UPDATE SET solves = player_grades.solves + 1, seconds = player_grades.seconds + excluded.seconds,
        fastest = CASE WHEN excluded.fastest < player_grades.fastest THEN excluded.fastest ELSE player_grades.fastest END,
        slowest = CASE WHEN excluded.slowest > player_grades.slowest THEN excluded.slowest ELSE player_grades.slowest END),
te AS (
    INSERT INTO player_techniques (player_id, technique, hints, gave_up)
    SELECT $12, t.name, t.hints, t.gave_up FROM unnest($20::text[], $21::bigint[], $22::bigint[]) AS t (name, hints, gave_up)
    ON CONFLICT (player_id, technique) DO UPDATE SET hints = player_techniques.hints + excluded.hints,
        gave_up = player_techniques.gave_up + excluded.gave_up),
cr AS (
    INSERT INTO class_ratings (class_key, plays, solves, difficulty, weight, prior)
    SELECT $23, $24, $25, $26, $27, $29::double precision WHERE $11 = 1
    ON CONFLICT (class_key) DO UPDATE SET plays = excluded.plays, solves = excluded.solves,
        difficulty = excluded.difficulty, weight = excluded.weight WHERE $30 = 1
    RETURNING 1),
n AS (
    SELECT (SELECT count(*) FROM attempts WHERE class_key = $23 AND counted = 1 AND outcome = 'solved' AND $11 = 1)
        + CASE WHEN $11 = 1 AND $3 = 'solved' THEN 1 ELSE 0 END AS n),
mid AS (
    SELECT seconds FROM (
        SELECT seconds FROM attempts WHERE class_key = $23 AND counted = 1 AND outcome = 'solved' AND $11 = 1
        UNION ALL SELECT $4 WHERE $11 = 1 AND $3 = 'solved') AS s
    ORDER BY seconds LIMIT 2 - (SELECT n FROM n) % 2 OFFSET ((SELECT n FROM n) - 1) / 2),
med AS (SELECT CASE WHEN count(*) = 0 THEN 0 ELSE greatest((min(seconds) + max(seconds) + 1) / 2, 1) END AS m FROM mid),
h AS (SELECT first_id FROM classes WHERE canonical_key = $23),
m AS (
    SELECT first_id AS id FROM h
    UNION ALL SELECT id FROM puzzles WHERE same_as IN (SELECT first_id FROM h)
    UNION ALL SELECT id FROM puzzles WHERE givens_key = $23 AND canonical_key IS NULL AND NOT EXISTS (SELECT 1 FROM h)),
fig AS (
    INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
    SELECT m.id, $24, $25, (SELECT m FROM med) FROM m WHERE $11 = 1` + figuresUpsert + `),
sec AS (
    UPDATE puzzles SET player_seconds = $28 WHERE $11 = 1 AND player_seconds <> $28 AND id IN (SELECT id FROM m))
SELECT (SELECT count(*) FROM u), (SELECT count(*) FROM cr)`

// errClassRaced is a finish whose class's first counted attempt another
// transaction recorded between the finish's read and its write: the
// transaction runs again (retryable), and the read then finds the row.
var errClassRaced = errors.New("finish: the class's rating was made meanwhile")

// finishOne is finisher.finish on PostgreSQL: finishReadSQL, the
// decisions and ratings.Update, then finishWriteSQL.
func (f *finisher) finishOne(r *finishReq, now time.Time) (account.Attempt, error) {
	var key []byte
	var givens, technique, streakDay, daily string
	var grade, hidden int
	var before, rated, streak int64
	var skill float64
	var cPlays, cSolves sql.NullInt64
	var cDifficulty, cWeight, cPrior sql.NullFloat64
	var prior []byte
	a, err := scanAttempt(f.tx.QueryRow(finishReadSQL, r.id, r.player).Scan, &key, &givens, &grade, &technique, &hidden,
		&before, &skill, &rated, &streak, &streakDay, &daily, &cPlays, &cSolves, &cDifficulty, &cWeight, &cPrior, &prior)
	if errors.Is(err, sql.ErrNoRows) {
		return account.Attempt{}, attemptNotFound(r.id)
	}
	if err != nil {
		return account.Attempt{}, err
	}
	a, err = decideFinish(r, a, givens, hidden != 0, now, func() (int64, error) { return before, nil })
	if err != nil {
		return account.Attempt{}, err
	}
	a.Grade, a.Technique = grade, technique
	// The class as the rater would take it: its row, or one made from the
	// prior at its first counted attempt.
	pr := ratings.DefaultPrior
	if prior != nil {
		if pr, err = parsePrior(string(prior)); err != nil {
			return account.Attempt{}, err
		}
	}
	p0 := pr.Of(int64(grade))
	c := ratings.Class{Difficulty: p0, Weight: ratings.PriorWeight, Prior: p0}
	found := cPlays.Valid
	if found {
		c = ratings.Class{Plays: cPlays.Int64, Solves: cSolves.Int64, Difficulty: cDifficulty.Float64, Weight: cWeight.Float64, Prior: cPrior.Float64}
	}
	p := ratings.PlayerOf(skill, rated)
	if a.Counted {
		o := ratings.Observation{Seconds: a.Seconds, Solved: a.Outcome == account.OutcomeSolved, Hints: a.Hints}
		c, p = ratings.Update(c, p, o)
	}
	streak, streakDay = nextStreak(a, daily, streak, streakDay, now)
	args := append(f.writeArgs(a, key, c, p, streak, streakDay), p0, flag(found))
	var wrote, rated1 int64
	if err := f.tx.QueryRow(finishWriteSQL, args...).Scan(&wrote, &rated1); err != nil {
		return account.Attempt{}, err
	}
	if wrote != 1 {
		return account.Attempt{}, account.ErrFinished // not reached: the read locked the attempt
	}
	if a.Counted && rated1 != 1 {
		return account.Attempt{}, errClassRaced
	}
	return a, nil
}

// nextStreak is the player's streak and its day after the finish a (as
// finisher.figures keeps them): a solve of today's puzzle of the day
// (daily, the class's date) extends yesterday's streak or starts one.
func nextStreak(a account.Attempt, daily string, streak int64, day string, now time.Time) (int64, string) {
	today := now.UTC().Format(time.DateOnly)
	if a.Outcome != account.OutcomeSolved || daily != today || day == today {
		return streak, day
	}
	if day == now.UTC().AddDate(0, 0, -1).Format(time.DateOnly) {
		return streak + 1, today
	}
	return 1, today
}

// writeArgs are finishWriteSQL's arguments for the decided finish a at
// class key: c and p the class and the player after the model's step
// (used when a is counted).
func (f *finisher) writeArgs(a account.Attempt, key []byte, c ratings.Class, p ratings.Player, streak int64, day string) []any {
	var solved, gaveUp int64
	if a.Outcome == account.OutcomeSolved {
		solved = 1
	} else {
		gaveUp = 1
	}
	// The technique rows as figures adds them: one per hinted technique,
	// and the puzzle's hardest for a give-up, summed when they are one.
	type counts struct{ hints, gaveUp int64 }
	byName := map[string]counts{}
	for _, t := range a.Techniques {
		n := byName[t]
		n.hints++
		byName[t] = n
	}
	if a.Outcome == account.OutcomeGaveUp && a.Technique != "" {
		n := byName[a.Technique]
		n.gaveUp++
		byName[a.Technique] = n
	}
	names := slices.Sorted(maps.Keys(byName))
	hints, gave := make([]int64, len(names)), make([]int64, len(names))
	for i, t := range names {
		hints[i], gave[i] = byName[t].hints, byName[t].gaveUp
	}
	return []any{a.ID, a.FinishedAt.UnixNano(), string(a.Outcome), a.Seconds, a.Hints, a.Checks, a.Mistakes, flag(a.First),
		strings.Join(a.Techniques, "\n"), flag(a.Practice), flag(a.Counted),
		a.PlayerID, solved, gaveUp, p.Skill(), p.Rated, streak, day,
		int64(a.Grade), names, hints, gave,
		key, c.Plays, c.Solves, c.Difficulty, c.Weight, c.Seconds()}
}
