package store

// finishpg.go is a group of finishes on PostgreSQL, where every statement
// is a round trip costing both sides more CPU than most of the
// statements' own work: the steps of finisher.finish (the attempt, the
// first-attempt count, the class's rating, the player's, the median walk,
// the puzzles' figures, the player's figures) for every finish of a group
// commit in two statements, one read and one write of arrays (unnest),
// instead of about seventeen a finish, queued on the group's pipe (tx.go):
// the read goes with BEGIN, the write with COMMIT. The decisions stay in Go, finish
// after finish in the group's order (decideFinish, ratings.Update, the
// streak), each seeing the ones before it, so both databases record the
// same (TestFinishParity).

import (
	"bytes"
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// finishReadSQL reads what the finishes of a group decide on, locking the
// attempts and the players ($1 the attempts, $2 their players): for each
// finish found (n, its place in the arrays, from 1), the attempt, its
// class key, its puzzle's givens, grade, technique and hidden flag, the
// player's finished attempts at the class before, the player's skill,
// rated count, streak and streak day, the date the class was the puzzle
// of the day (empty if never), the player_seconds its class's puzzles
// show (-1 when they differ), the class's rating (NULLs for none; locked)
// and the archive's prior (read once, uncorrelated: an InitPlan). No
// row: not the player's attempt. Each
// finish is read by a subquery of its own (a locking one, which the
// planner keeps apart), so its rows are found by their keys whatever the
// planner guesses of the arrays: as one join, a plan made while the
// tables were small hashed the whole of attempts.
var finishReadSQL = `SELECT r.n, f.*, (SELECT value FROM settings WHERE name = '` + priorName + `') FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS r (id, player, n),
LATERAL (SELECT ` + attemptColumns + `, attempts.class_key, puzzles.givens, puzzles.grade, puzzles.technique, puzzles.hidden,
    (SELECT count(*) FROM attempts b WHERE b.player_id = attempts.player_id AND b.class_key = attempts.class_key AND b.outcome <> 'open'),
    players.skill, players.rated, players.streak, players.streak_day,
    coalesce((SELECT date FROM daily WHERE daily.canonical_key = attempts.class_key), ''),
    coalesce((SELECT CASE WHEN min(m.player_seconds) = max(m.player_seconds) THEN min(m.player_seconds) END FROM puzzles AS m
        WHERE m.id IN (` + strings.ReplaceAll(classMembersSQL, "?1", "attempts.class_key") + `)), -1),
    c.plays, c.solves, c.difficulty, c.weight, c.prior
    FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id JOIN players ON players.id = attempts.player_id
    LEFT JOIN LATERAL (SELECT plays, solves, difficulty, weight, prior FROM class_ratings
        WHERE class_ratings.class_key = attempts.class_key FOR UPDATE) AS c ON true
    WHERE attempts.id = r.id AND attempts.player_id = r.player
    FOR UPDATE OF attempts, players) AS f
ORDER BY r.n`

// finishWriteSQL records a group's decided finishes, each table's rows as
// arrays, one element a row: the attempts ($1-$11), the players' counts,
// skill and streak ($12-$18: the solves and give-ups to add, the rest the
// values after the group), the players' figures by grade ($19-$24: the
// solves and seconds to add, the fastest and slowest) and by technique
// ($25-$28: the hints and give-ups to add), the ratings of the classes
// with a counted finish ($29-$36: $35 is 1 where the read found and locked
// the class's row, $36 the expected seconds) and the classes' counted
// solves of the group ($37, $38); $39 is the attempts' skill after their
// step (0 where not counted), added last. Every puzzle of each class gets the
// class's figures, the median of its counted solves taken over the index
// and the group's (as rater.medianSeconds computes it), as figureWrites
// writes them. It returns 0, or fails itself (an invalid cast of a marked
// text, as closeGroupSQL does) when it wrote fewer attempts than given
// (finishLostMark: not reached, the read locked them) or fewer classes'
// ratings (ratingRacedMark: another transaction made a class's row since
// the read; errClassRaced, the group runs again), so that the statement
// can go with the COMMIT and no answer of it needs a look first. The
// updates name their rows by = ANY too, so that they are found by key
// whatever the plan makes of the arrays.
//
// Its sec (the classes' expected seconds onto their puzzles' rows) is
// left out, as finishKeepSQL, when every class of the group showed its
// expected seconds already on all its puzzles (finishGroup.secondsMove):
// it would change no row, yet an UPDATE of puzzles opens the table's
// dozen indexes, about a third of a small group's write (issue 36).
var finishWriteSQL, finishKeepSQL = finishWrite(true), finishWrite(false)

// finishWrite is finishWriteSQL, with its sec or without.
func finishWrite(seconds bool) string {
	sec := ""
	if seconds {
		sec = `,
sec AS (
    UPDATE puzzles SET player_seconds = k.expected FROM mem JOIN k ON k.key = mem.key
    WHERE puzzles.id = mem.id AND puzzles.player_seconds <> k.expected)`
	}
	return `WITH u AS (
    UPDATE attempts SET finished_at = x.finished_at, outcome = x.outcome, seconds = x.seconds, hints = x.hints, checks = x.checks,
        mistakes = x.mistakes, first = x.first, techniques = x.techniques, practice = x.practice, counted = x.counted, skill = x.skill
    FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[],
        $9::text[], $10::bigint[], $11::bigint[], $39::double precision[])
        AS x (id, finished_at, outcome, seconds, hints, checks, mistakes, first, techniques, practice, counted, skill)
    WHERE attempts.id = x.id AND attempts.id = ANY($1) AND attempts.outcome = 'open' RETURNING 1),
pl AS (
    UPDATE players SET solved = players.solved + x.solved, gave_up = players.gave_up + x.gave_up, skill = x.skill, rated = x.rated,
        streak = x.streak, streak_day = x.streak_day
    FROM unnest($12::bigint[], $13::bigint[], $14::bigint[], $15::double precision[], $16::bigint[], $17::bigint[], $18::text[])
        AS x (id, solved, gave_up, skill, rated, streak, streak_day)
    WHERE players.id = x.id AND players.id = ANY($12)),
gr AS (
    INSERT INTO player_grades (player_id, grade, solves, seconds, fastest, slowest)
    SELECT * FROM unnest($19::bigint[], $20::bigint[], $21::bigint[], $22::bigint[], $23::bigint[], $24::bigint[]) WHERE true
    ON CONFLICT (player_id, grade) DO UPDATE SET solves = player_grades.solves + excluded.solves, seconds = player_grades.seconds + excluded.seconds,
        fastest = CASE WHEN excluded.fastest < player_grades.fastest THEN excluded.fastest ELSE player_grades.fastest END,
        slowest = CASE WHEN excluded.slowest > player_grades.slowest THEN excluded.slowest ELSE player_grades.slowest END),
te AS (
    INSERT INTO player_techniques (player_id, technique, hints, gave_up)
    SELECT * FROM unnest($25::bigint[], $26::text[], $27::bigint[], $28::bigint[]) WHERE true
    ON CONFLICT (player_id, technique) DO UPDATE SET hints = player_techniques.hints + excluded.hints,
        gave_up = player_techniques.gave_up + excluded.gave_up),
k AS MATERIALIZED (
    SELECT * FROM unnest($29::bytea[], $30::bigint[], $31::bigint[], $32::double precision[], $33::double precision[],
        $34::double precision[], $35::bigint[], $36::bigint[]) AS k (key, plays, solves, difficulty, weight, prior, found, expected)),
cu AS (
    UPDATE class_ratings SET plays = k.plays, solves = k.solves, difficulty = k.difficulty, weight = k.weight
    FROM k WHERE k.found = 1 AND class_ratings.class_key = k.key AND class_ratings.class_key = ANY($29) RETURNING 1),
ci AS (
    INSERT INTO class_ratings (class_key, plays, solves, difficulty, weight, prior)
    SELECT key, plays, solves, difficulty, weight, prior FROM k WHERE found = 0 ORDER BY key
    ON CONFLICT (class_key) DO NOTHING RETURNING 1),
ns AS MATERIALIZED (SELECT * FROM unnest($37::bytea[], $38::bigint[]) AS s (key, seconds)),
med AS (
    SELECT k.key, (SELECT CASE WHEN count(*) = 0 THEN 0 ELSE greatest((min(m.seconds) + max(m.seconds) + 1) / 2, 1) END FROM (
        SELECT s.seconds FROM (
            SELECT seconds FROM attempts WHERE class_key = k.key AND counted = 1 AND outcome = 'solved'
            UNION ALL SELECT seconds FROM ns WHERE ns.key = k.key) AS s
        ORDER BY s.seconds LIMIT 2 - c.n % 2 OFFSET (c.n - 1) / 2) AS m) AS m
    FROM k, LATERAL (SELECT (SELECT count(*) FROM attempts WHERE class_key = k.key AND counted = 1 AND outcome = 'solved')
        + (SELECT count(*) FROM ns WHERE ns.key = k.key) AS n) AS c),
mem AS MATERIALIZED (
    SELECT k.key, x.id FROM k, LATERAL (` + strings.ReplaceAll(classMembersSQL, "?1", "k.key") + `) AS x),
fig AS (
    INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
    SELECT mem.id, k.plays, k.solves, med.m FROM mem JOIN k ON k.key = mem.key JOIN med ON med.key = mem.key WHERE true` + figuresUpsert + `)` + sec + `
SELECT coalesce(CAST((SELECT CASE WHEN w.n <> cardinality($1::bigint[]) THEN '` + finishLostMark + `'
        WHEN w.c <> coalesce(cardinality($29::bytea[]), 0) THEN '` + ratingRacedMark + `' END
    FROM (SELECT (SELECT count(*) FROM u) AS n, (SELECT count(*) FROM cu) + (SELECT count(*) FROM ci) AS c) AS w) AS bigint), 0)`
}

// The marks of finishWriteSQL's failures (see raised).
const (
	finishLostMark  = "sudoku: attempts written meanwhile"
	ratingRacedMark = "sudoku: class rating made meanwhile"
)

// errClassRaced is a group with a finish whose class's first counted
// attempt another transaction recorded between the group's read and its
// write: the transaction runs again (retryable), and the read then finds
// the row.
var errClassRaced = errors.New("finish: the class's rating was made meanwhile")

// A finishRow is what finishReadSQL reads for one finish.
type finishRow struct {
	a                        account.Attempt
	key                      []byte
	givens, technique, daily string
	grade                    int
	hidden                   bool
	before                   int64 // the player's finished attempts at the class
	skill                    float64
	rated, streak            int64
	streakDay                string
	shown                    int64          // the class's puzzles' player_seconds; -1: they differ
	class                    *ratings.Class // nil: no row yet
	prior                    []byte
}

// queueFinishRead queues finishReadSQL for the finishes fs on the pipe:
// the rows found, by place in fs, are in the map once the pipe flushed.
func queueFinishRead(p *pipe, fs []*finishReq) map[int]*finishRow {
	ids, players := make([]int64, len(fs)), make([]int64, len(fs))
	for i, r := range fs {
		ids[i], players[i] = r.id, r.player
	}
	read := make(map[int]*finishRow, len(fs))
	p.Queue(finishReadSQL, ids, players).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			w, n, err := scanFinishRow(rows)
			if err != nil {
				return err
			}
			read[int(n-1)] = w
		}
		return rows.Err()
	})
	return read
}

// scanFinishRow reads a row of finishReadSQL: the finish's place in the
// arrays (from 1) and what it read.
func scanFinishRow(rows pgx.Rows) (*finishRow, int64, error) {
	var n int64
	var hidden int
	var cPlays, cSolves sql.NullInt64
	var cDifficulty, cWeight, cPrior sql.NullFloat64
	w := &finishRow{}
	var err error
	w.a, err = scanAttempt(func(dest ...any) error { return rows.Scan(append([]any{&n}, dest...)...) },
		&w.key, &w.givens, &w.grade, &w.technique, &hidden, &w.before, &w.skill, &w.rated, &w.streak, &w.streakDay, &w.daily, &w.shown,
		&cPlays, &cSolves, &cDifficulty, &cWeight, &cPrior, &w.prior)
	if err != nil {
		return nil, 0, err
	}
	w.hidden = hidden != 0
	if cPlays.Valid {
		w.class = &ratings.Class{Plays: cPlays.Int64, Solves: cSolves.Int64, Difficulty: cDifficulty.Float64, Weight: cWeight.Float64, Prior: cPrior.Float64}
	}
	return w, n, nil
}

// A finishGroup is a group's finishes decided so far, as the write will
// record them: each player's and class's state after them, and what to
// add to the players' figures.
type finishGroup struct {
	now      time.Time
	recorded []account.Attempt
	done     map[int64]bool   // the attempts recorded
	finished map[string]int64 // finishes recorded by player and class key
	players  map[int64]*groupPlayer
	classes  map[string]*groupClass
	grades   map[[2]int64]*gradeFigures // by player and grade
	tech     map[playerTechnique]*[2]int64
}

type groupPlayer struct {
	p              ratings.Player
	rated          bool    // p moved: a counted finish
	skill          float64 // as read, written back while not rated
	streak         int64
	day            string
	solved, gaveUp int64
}

type groupClass struct {
	key     []byte
	c       ratings.Class
	found   bool    // the read found its row
	prior   float64 // of a new class's row
	seconds []int64 // the group's counted solves
	shown   int64   // the player_seconds its puzzles showed, as read; -1: they differed
}

type playerTechnique struct {
	player int64
	name   string
}

// finishAll decides the finishes fs of a group (in its order) on
// PostgreSQL, as read by queueFinishRead, each as finisher.finish decides
// it, and queues finishWriteSQL on the pipe to record them. A finish
// refused is answered with its error and changes nothing.
func finishAll(p *pipe, fs []*finishReq, read map[int]*finishRow, now time.Time) ([]finishResult, error) {
	g := &finishGroup{now: now, done: map[int64]bool{}, finished: map[string]int64{}, players: map[int64]*groupPlayer{},
		classes: map[string]*groupClass{}, grades: map[[2]int64]*gradeFigures{}, tech: map[playerTechnique]*[2]int64{}}
	results := make([]finishResult, len(fs))
	for i, r := range fs {
		w := read[i]
		if w == nil {
			results[i].err = attemptNotFound(r.id)
			continue
		}
		if results[i].a, results[i].err = g.decide(r, w); results[i].err != nil && !refused(results[i].err) {
			return nil, results[i].err
		}
	}
	if len(g.recorded) > 0 {
		// The statement fails itself when it wrote fewer rows than given
		// (finishWriteSQL), so its answer needs no check here: it may go
		// with the COMMIT.
		q := finishKeepSQL
		if g.secondsMove() {
			q = finishWriteSQL
		}
		p.Queue(q, g.args()...)
	}
	return results, nil
}

// secondsMove reports whether some class the group rates has a puzzle
// whose player_seconds (as read) is not the class's expected seconds
// after the group: then the write must set them (finishWriteSQL's sec).
// A puzzle that joins a class meanwhile takes the player_seconds of the
// class's first entry (closeGroupSQL), which the read saw.
func (g *finishGroup) secondsMove() bool {
	for _, cl := range g.classes {
		if cl.shown != cl.c.Seconds() {
			return true
		}
	}
	return false
}

// decide decides the finish r, read as w, after the group's finishes
// before it, and adds it to the group.
func (g *finishGroup) decide(r *finishReq, w *finishRow) (account.Attempt, error) {
	a := w.a
	if g.done[a.ID] {
		a.Outcome = account.OutcomeSolved // finished earlier in the group
	}
	finishedKey := fmt.Sprintf("%d/%x", a.PlayerID, w.key)
	a, err := decideFinish(r, a, w.givens, w.hidden, g.now, func() (int64, error) { return w.before + g.finished[finishedKey], nil })
	if err != nil {
		return account.Attempt{}, err
	}
	a.Grade, a.Technique = w.grade, w.technique
	pl := g.players[a.PlayerID]
	if pl == nil {
		pl = &groupPlayer{p: ratings.PlayerOf(w.skill, w.rated), skill: w.skill, streak: w.streak, day: w.streakDay}
		g.players[a.PlayerID] = pl
	}
	if a.Counted {
		if err := g.rate(&a, w, pl); err != nil {
			return account.Attempt{}, err
		}
	}
	pl.streak, pl.day = nextStreak(a, w.daily, pl.streak, pl.day, g.now)
	g.addFigures(a, pl)
	g.done[a.ID] = true
	g.finished[finishedKey]++
	g.recorded = append(g.recorded, a)
	return a, nil
}

// rate is the model's step for the counted finish a (read as w) of player
// pl: the class as the rater would take it (its row, or one made from the
// prior of a's grade at the class's first counted attempt) and pl move;
// a gets the player's skill before and after, as the rater gives them.
func (g *finishGroup) rate(a *account.Attempt, w *finishRow, pl *groupPlayer) error {
	cl := g.classes[string(w.key)]
	if cl == nil {
		cl = &groupClass{key: w.key, shown: w.shown}
		if w.class != nil {
			cl.c, cl.found = *w.class, true
		} else {
			pr := ratings.DefaultPrior
			if w.prior != nil {
				var err error
				if pr, err = parsePrior(string(w.prior)); err != nil {
					return err
				}
			}
			cl.prior = pr.Of(int64(w.grade))
			cl.c = ratings.Class{Difficulty: cl.prior, Weight: ratings.PriorWeight, Prior: cl.prior}
		}
		g.classes[string(w.key)] = cl
	}
	o := ratings.Observation{Seconds: a.Seconds, Solved: a.Outcome == account.OutcomeSolved, Hints: a.Hints}
	a.SkillBefore = pl.p.Skill()
	cl.c, pl.p = ratings.Update(cl.c, pl.p, o)
	a.SkillAfter = pl.p.Skill()
	pl.rated = true
	if o.Solved {
		cl.seconds = append(cl.seconds, a.Seconds)
	}
	return nil
}

// addFigures adds the finish a to its player's counts and figures, as
// finisher.figures does: a solve to the grade's row, a technique row for
// each hinted technique and, for a give-up, the puzzle's hardest.
func (g *finishGroup) addFigures(a account.Attempt, pl *groupPlayer) {
	for _, t := range a.Techniques {
		g.technique(a.PlayerID, t)[0]++
	}
	if a.Outcome == account.OutcomeGaveUp {
		pl.gaveUp++
		if a.Technique != "" {
			g.technique(a.PlayerID, a.Technique)[1]++
		}
		return
	}
	pl.solved++
	k := [2]int64{a.PlayerID, int64(a.Grade)}
	if gf := g.grades[k]; gf == nil {
		g.grades[k] = &gradeFigures{solves: 1, seconds: a.Seconds, fastest: a.Seconds, slowest: a.Seconds}
	} else {
		gf.solves, gf.seconds, gf.fastest, gf.slowest = gf.solves+1, gf.seconds+a.Seconds, min(gf.fastest, a.Seconds), max(gf.slowest, a.Seconds)
	}
}

// technique is the player's hints and give-ups to add for the technique
// t.
func (g *finishGroup) technique(player int64, t string) *[2]int64 {
	k := playerTechnique{player, t}
	if g.tech[k] == nil {
		g.tech[k] = new([2]int64)
	}
	return g.tech[k]
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

// args are finishWriteSQL's arguments for the group's decided finishes,
// every table's rows in key order.
func (g *finishGroup) args() []any {
	n := len(g.recorded)
	var at struct {
		id, finished, seconds, hints, checks, mistakes, first, practice, counted []int64
		outcome, techniques                                                      []string
		skill                                                                    []float64
	}
	for _, a := range g.recorded {
		at.id, at.finished, at.seconds = append(at.id, a.ID), append(at.finished, a.FinishedAt.UnixNano()), append(at.seconds, a.Seconds)
		at.hints, at.checks, at.mistakes = append(at.hints, a.Hints), append(at.checks, a.Checks), append(at.mistakes, a.Mistakes)
		at.first, at.practice, at.counted = append(at.first, flag(a.First)), append(at.practice, flag(a.Practice)), append(at.counted, flag(a.Counted))
		at.outcome, at.techniques = append(at.outcome, string(a.Outcome)), append(at.techniques, strings.Join(a.Techniques, "\n"))
		at.skill = append(at.skill, a.SkillAfter)
	}
	args := make([]any, 0, 39)
	args = append(args, at.id, at.finished, at.outcome, at.seconds, at.hints, at.checks, at.mistakes, at.first, at.techniques, at.practice, at.counted)
	args = append(args, g.playerArgs()...)
	args = append(args, g.figureArgs()...)
	args = append(args, g.classArgs()...)
	args = append(args, at.skill)
	if len(args) != 39 || len(at.id) != n {
		panic("finishWriteSQL: wrong arguments") // not reached
	}
	return args
}

// playerArgs are finishWriteSQL's $12-$18.
func (g *finishGroup) playerArgs() []any {
	ids := slices.Sorted(maps.Keys(g.players))
	solved, gaveUp, rated, streak := make([]int64, len(ids)), make([]int64, len(ids)), make([]int64, len(ids)), make([]int64, len(ids))
	skill, day := make([]float64, len(ids)), make([]string, len(ids))
	for i, id := range ids {
		pl := g.players[id]
		solved[i], gaveUp[i], skill[i], rated[i], streak[i], day[i] = pl.solved, pl.gaveUp, pl.skill, pl.p.Rated, pl.streak, pl.day
		if pl.rated {
			skill[i] = pl.p.Skill()
		}
	}
	return []any{ids, solved, gaveUp, skill, rated, streak, day}
}

// figureArgs are finishWriteSQL's $19-$28: the players' figures by grade
// and by technique.
func (g *finishGroup) figureArgs() []any {
	gk := slices.SortedFunc(maps.Keys(g.grades), func(x, y [2]int64) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	var gp, gg, gs, gsec, gf, gsl []int64
	for _, k := range gk {
		f := g.grades[k]
		gp, gg, gs, gsec, gf, gsl = append(gp, k[0]), append(gg, k[1]), append(gs, f.solves), append(gsec, f.seconds), append(gf, f.fastest), append(gsl, f.slowest)
	}
	tk := slices.SortedFunc(maps.Keys(g.tech), func(x, y playerTechnique) int {
		return cmp.Or(cmp.Compare(x.player, y.player), strings.Compare(x.name, y.name))
	})
	var tp, th, tg []int64
	var tn []string
	for _, k := range tk {
		tp, tn, th, tg = append(tp, k.player), append(tn, k.name), append(th, g.tech[k][0]), append(tg, g.tech[k][1])
	}
	return []any{gp, gg, gs, gsec, gf, gsl, tp, tn, th, tg}
}

// classArgs are finishWriteSQL's $29-$38: the classes with a counted
// finish and their counted solves.
func (g *finishGroup) classArgs() []any {
	cs := slices.SortedFunc(maps.Values(g.classes), func(x, y *groupClass) int { return bytes.Compare(x.key, y.key) })
	var keys, sKeys [][]byte
	var plays, solves, found, expected, seconds []int64
	var difficulty, weight, prior []float64
	for _, cl := range cs {
		pr := cl.c.Prior
		if !cl.found {
			pr = cl.prior
		}
		keys, plays, solves = append(keys, cl.key), append(plays, cl.c.Plays), append(solves, cl.c.Solves)
		difficulty, weight, prior = append(difficulty, cl.c.Difficulty), append(weight, cl.c.Weight), append(prior, pr)
		found, expected = append(found, flag(cl.found)), append(expected, cl.c.Seconds())
		for _, s := range cl.seconds {
			sKeys, seconds = append(sKeys, cl.key), append(seconds, s)
		}
	}
	return []any{keys, plays, solves, difficulty, weight, prior, found, expected, sKeys, seconds}
}
