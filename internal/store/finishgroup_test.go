package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestFinishGroupParity commits groups of finishes that touch the same
// class, puzzle and player together (one group commit each, as
// concurrent finishes are), on SQLite (each finish in steps, in the
// group's order) and on PostgreSQL (the group's finishes in one read and
// one write in one pipe, finishAll), and checks that they answer the same
// and record the same, row for row: two players' first solves of a new
// class in one group (its row made by the group), a second writing of
// the class by a player who counted it already, the same attempt
// finished twice, a wrong grid and a give-up with hints amid them, an
// attempt that is not the player's, starts (one of no puzzle, one twice),
// and a second group on the classes the first made (past
// ratings.MinPlays, so player_seconds shows). (PostgreSQL takes a group's
// starts before its finishes: a start of a puzzle whose open attempt the
// same group finishes may answer differently, as the two requests'
// order is not defined; the groups here have none.)
func TestFinishGroupParity(t *testing.T) {
	pgtest.Shared(t)
	dumps, answers := map[string]string{}, map[string]string{}
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		db := bk.open(t)
		answers[bk.name] = playGroups(t, db)
		dumps[bk.name] = dumpFinishes(t, db) + summarySkills(t, db)
	}
	if diff := cmp.Diff(answers["sqlite"], answers["postgres"]); diff != "" {
		t.Errorf("SQLite and PostgreSQL answered the finishes differently (-sqlite +postgres):\n%s", diff)
	}
	if diff := cmp.Diff(dumps["sqlite"], dumps["postgres"]); diff != "" {
		t.Errorf("SQLite and PostgreSQL recorded different finishes (-sqlite +postgres):\n%s", diff)
	}
}

// playGroups commits TestFinishGroupParity's two groups on db and returns
// their answers, a line each.
func playGroups(t *testing.T, db *DB) string {
	ctx := context.Background()
	x := archived(t, db, 6)
	x2 := writtenAgain(t, db, x, 9)
	b, c := archived(t, db, 1).ID, archived(t, db, 2).ID
	players := newPlayers(t, db, 700, 4)
	p0, p1, p2, p3 := players[0], players[1], players[2], players[3]
	start := func(player, puzzle, seconds int64) int64 {
		a, _, err := db.StartAttempt(ctx, player, puzzle)
		if err != nil {
			t.Fatal(err)
		}
		backdate(t, db, a.ID, seconds)
		return a.ID
	}
	solved := func(player, id, seconds int64, hints ...string) *finishReq {
		f := account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), ActiveSeconds: seconds, Hints: int64(len(hints)), Techniques: hints}
		return &finishReq{player: player, id: id, f: f, done: make(chan finishResult, 1)}
	}
	a0, a1, a0x2 := start(p0, x.ID, 200), start(p1, x.ID, 300), start(p0, x2.ID, 100)
	a2, a1c, a3 := start(p2, b, 400), start(p1, c, 500), start(p3, x.ID, 250)
	wrong := solved(p2, a2, 90)
	wrong.f.Grid = strings.Repeat("1", 81)
	gaveUp := solved(p2, a2, 95, "Naked Pair", "X-Wing", "Naked Pair")
	gaveUp.f.Outcome, gaveUp.f.Grid = account.OutcomeGaveUp, ""
	gaveUp3 := solved(p3, a3, 240, "X-Wing")
	gaveUp3.f.Outcome, gaveUp3.f.Grid = account.OutcomeGaveUp, ""
	var out strings.Builder
	commit(t, db, &out, []*finishReq{
		solved(p0, a0, 180), solved(p1, a1, 290, "Hidden Single"), solved(p0, a0x2, 60), solved(p0, a0, 170),
		wrong, gaveUp, startReq(p3, c), startReq(p2, 99999), startReq(p1, b),
		solved(p1, a1c, 480, "X-Wing", "Hidden Single"), gaveUp3, solved(p3, a0, 100), startReq(p3, c),
	})
	b0, b1, x22 := start(p0, b, 310), start(p1, b, 320), start(p2, x2.ID, 210)
	commit(t, db, &out, []*finishReq{solved(p2, x22, 205), solved(p1, b1, 300), solved(p0, b0, 305)})
	return out.String()
}

// startReq is a start of player at puzzle waiting for its group commit.
func startReq(player, puzzle int64) *finishReq {
	return &finishReq{player: player, puzzle: puzzle, start: true, done: make(chan finishResult, 1)}
}

// commit commits group as one group commit and writes its answers to out.
func commit(t *testing.T, db *DB, out *strings.Builder, group []*finishReq) {
	t.Helper()
	db.commitFinishes(context.Background(), group)
	for i, r := range group {
		res := <-r.done
		switch {
		case res.err == nil:
			a := res.a
			fmt.Fprintf(out, "%d: attempt %d player %d puzzle %d %s %ds first=%v counted=%v grade=%d created=%v skill %.9f → %.9f\n",
				i, a.ID, a.PlayerID, a.PuzzleID, a.Outcome, a.Seconds, a.First, a.Counted, a.Grade, res.created, a.SkillBefore, a.SkillAfter)
		case refused(res.err):
			fmt.Fprintf(out, "%d: refused: %s\n", i, refusal(res.err))
		default:
			t.Fatalf("finish %d: %v", i, res.err)
		}
	}
}

// refusal names the kind of a refused finish's error.
func refusal(err error) string {
	for _, e := range []error{record.ErrNotFound, account.ErrFinished, account.ErrWrongGrid, account.ErrBadFinish} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return err.Error()
}

// summarySkills writes every player's Summary.Skills, the rating's
// history, and checks it against the skill of the player's counted
// attempts: one point each (all, at most MaxSkillPoints here), the last
// the player's skill now.
func summarySkills(t *testing.T, db *DB) string {
	ctx := context.Background()
	rows, err := db.reader.Query("SELECT id, skill FROM players ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	type pl struct {
		id    int64
		skill float64
	}
	var ps []pl
	for rows.Next() {
		var p pl
		if err := rows.Scan(&p.id, &p.skill); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	rows.Close()
	var b strings.Builder
	for _, p := range ps {
		s, err := db.Summary(ctx, p.id, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		var counted int
		if err := db.reader.QueryRow(db.d.sql("SELECT count(*) FROM attempts WHERE player_id = ? AND counted = 1"), p.id).Scan(&counted); err != nil {
			t.Fatal(err)
		}
		if len(s.Skills) != counted || counted > 0 && math.Abs(s.Skills[counted-1].Skill-p.skill) > 1e-9 {
			t.Errorf("player %d: %d points of skill for %d counted attempts, the last %+v, skill %v", p.id, len(s.Skills), counted, s.Skills, p.skill)
		}
		fmt.Fprintf(&b, "player %d skills", p.id)
		for _, k := range s.Skills {
			fmt.Fprintf(&b, " %.9f", k.Skill)
		}
		b.WriteString("\n")
	}
	return b.String()
}
