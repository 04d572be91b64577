package store

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// nextSuite is the suite's part for the reads of the web's players'
// figures (next.go; added to the suite in suite_test.go).
var nextSuite = []suiteCase{
	{"NextPuzzle", testNextPuzzle},
	{"NextPuzzleRated", testNextPuzzleRated},
	{"UsualSeconds", testUsualSeconds},
	{"RatedPuzzles", testRatedPuzzles},
}

// gradedArchive archives synthetic puzzles graded grades[i] (tenths) and
// returns them as stored.
func gradedArchive(t *testing.T, db *DB, grades []int64) []record.Puzzle {
	t.Helper()
	ctx := context.Background()
	var ps []record.Puzzle
	for i, g := range grades {
		p := archived(t, db, int64(100+i))
		gr := float64(g) / 10
		p.Grade, p.Technique, p.GradeVersion = &gr, "Naked Single", "test"
		ps = append(ps, p)
	}
	if err := db.SetGrades(ctx, ps); err != nil {
		t.Fatal(err)
	}
	return ps
}

// wantNext calls NextPuzzle and checks the puzzle it gives (0: none).
func wantNext(t *testing.T, db *DB, player int64, target float64, want int64) {
	t.Helper()
	p, b, err := db.NextPuzzle(context.Background(), player, target)
	if want == 0 {
		if !errors.Is(err, record.ErrNotFound) {
			t.Errorf("next for player %d at %.3f: #%d, %v; want record.ErrNotFound", player, target, p.ID, err)
		}
		return
	}
	if err != nil || p.ID != want {
		t.Errorf("next for player %d at %.3f: #%d (b %.3f), %v; want #%d", player, target, p.ID, b, err, want)
	}
}

// testNextPuzzle: with no plays, the class whose prior is nearest the
// target, in any band, ties to the lower id; never a class the player has
// an attempt at (finished, or open, or at another way of writing it), nor
// an ungraded one; record.ErrNotFound when none is left.
func testNextPuzzle(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	wantNext(t, db, 0, math.Log(300), 0) // an empty archive
	ps := gradedArchive(t, db, []int64{12, 20, 20, 45, 72, 95})
	archived(t, db, 200) // ungraded: never chosen
	prior := ratings.DefaultPrior
	for _, tc := range []struct {
		tenths int64
		want   int
	}{{12, 0}, {19, 1}, {20, 1}, {40, 3}, {60, 4}, {120, 5}, {1, 0}} {
		wantNext(t, db, 0, prior.Of(tc.tenths), ps[tc.want].ID)
	}
	pl, err := db.NewPlayer(ctx, session(7), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	playAs(t, db, pl.ID, ps[1].ID, 60, account.Finish{Outcome: account.OutcomeSolved})
	wantNext(t, db, pl.ID, prior.Of(20), ps[2].ID) // the other grade 2.0
	// For anybody too: ps[1]'s class, played in a minute, moved off its
	// prior (5 minutes) towards the play.
	wantNext(t, db, 0, prior.Of(20), ps[2].ID)
	// An open attempt at another way of writing ps[2]: its class is taken.
	other := synthetic(300, 1, 1000, 1)
	other.Canonical = ps[2].Canonical
	o, _, err := db.Submit(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.StartAttempt(ctx, pl.ID, o.ID); err != nil {
		t.Fatal(err)
	}
	wantNext(t, db, pl.ID, prior.Of(20), ps[0].ID)
	for _, i := range []int{0, 3, 4} {
		playAs(t, db, pl.ID, ps[i].ID, 60, account.Finish{Outcome: account.OutcomeGaveUp})
	}
	wantNext(t, db, pl.ID, prior.Of(20), ps[5].ID)
	// A puzzle a moderator hid is offered to no one.
	err = db.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("UPDATE puzzles SET hidden = 1 WHERE id = ?"), ps[5].ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	wantNext(t, db, pl.ID, prior.Of(20), 0)
	wantNext(t, db, 0, prior.Of(120), ps[4].ID)
}

// testNextPuzzleRated: a class with player_seconds is placed by its
// fitted difficulty, not by its grade's prior.
func testNextPuzzleRated(t *testing.T, bk backend) {
	db := bk.open(t)
	ps := gradedArchive(t, db, []int64{12, 72})
	// Three quick solves make the grade 7.2 puzzle's class easy for
	// typical players; no one played the 1.2.
	for s := range byte(ratings.MinPlays) {
		play(t, db, 20+s, ps[1].ID, 5, account.Finish{Outcome: account.OutcomeSolved})
	}
	c, ok, err := db.ClassRating(context.Background(), ps[1].Canonical.Key())
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if c.Difficulty >= ratings.DefaultPrior.Of(72) {
		t.Fatalf("difficulty %.3f after quick solves, not below the prior %.3f", c.Difficulty, ratings.DefaultPrior.Of(72))
	}
	p, b, err := db.NextPuzzle(context.Background(), 0, c.Difficulty)
	if err != nil || p.ID != ps[1].ID || b != c.Difficulty {
		t.Errorf("next at %.3f: #%d (b %.3f), %v; want #%d at its class's difficulty", c.Difficulty, p.ID, b, err, ps[1].ID)
	}
	if p.PlayerSeconds == nil {
		t.Errorf("#%d shows no player_seconds after %d plays", p.ID, ratings.MinPlays)
	}
	wantNext(t, db, 0, ratings.DefaultPrior.Of(72), ps[1].ID) // the nearer of the two still
	wantNext(t, db, 0, ratings.DefaultPrior.Of(12), ps[0].ID)
}

// testUsualSeconds: the median of the player's last counted solves,
// give-ups and repeats not counted; 0, 0 for a player with none.
func testUsualSeconds(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := gradedArchive(t, db, []int64{12, 20, 30, 40, 50})
	pl, err := db.NewPlayer(ctx, session(9), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if s, n, err := db.UsualSeconds(ctx, pl.ID, 20); s != 0 || n != 0 || err != nil {
		t.Errorf("no solves: %v, %d, %v", s, n, err)
	}
	for i, secs := range []int64{100, 40, 300} {
		playAs(t, db, pl.ID, ps[i].ID, secs, account.Finish{Outcome: account.OutcomeSolved})
	}
	playAs(t, db, pl.ID, ps[3].ID, 900, account.Finish{Outcome: account.OutcomeGaveUp})
	playAs(t, db, pl.ID, ps[0].ID, 10, account.Finish{Outcome: account.OutcomeSolved}) // a repeat
	if s, n, err := db.UsualSeconds(ctx, pl.ID, 20); s != 100 || n != 3 || err != nil {
		t.Errorf("three solves: %v s of %d, %v; want 100 of 3", s, n, err)
	}
	if s, n, err := db.UsualSeconds(ctx, pl.ID, 2); s != 170 || n != 2 || err != nil {
		t.Errorf("the last two: %v s of %d, %v; want 170 of 2", s, n, err)
	}
}

// testRatedPuzzles: the first entry of each class with player_seconds,
// in id order, with its measures; and the count of classes with a play.
func testRatedPuzzles(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := gradedArchive(t, db, []int64{12, 72, 30})
	ung := archived(t, db, 400) // no grade: rated all the same
	for s := range byte(ratings.MinPlays) {
		pl, err := db.NewPlayer(ctx, session(40+s), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{ung.ID, ps[1].ID, ps[0].ID} {
			playAs(t, db, pl.ID, id, 30, account.Finish{Outcome: account.OutcomeSolved})
		}
	}
	play(t, db, 60, ps[2].ID, 30, account.Finish{Outcome: account.OutcomeSolved}) // one play: not rated
	var got []record.RatedPuzzle
	played, err := db.RatedPuzzles(ctx, func(r record.RatedPuzzle) error {
		got = append(got, r)
		return nil
	})
	if err != nil || played != 4 || len(got) != 3 {
		t.Fatalf("%d rated of %d played, %v; want 3 of 4", len(got), played, err)
	}
	for i, p := range []record.Puzzle{ps[0], ps[1], ung} {
		stored, err := db.Puzzle(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		r := got[i]
		if r.ID != p.ID || r.Backtracks != p.Backtracks || r.SolveNS != p.SolveNS || r.Clues != p.Clues ||
			r.GradeTenths != p.GradeTenths() || r.Technique != p.Technique || r.Plays != int64(ratings.MinPlays) ||
			stored.PlayerSeconds == nil || r.PlayerSeconds != *stored.PlayerSeconds {
			t.Errorf("row %d: %+v, want #%d's measures and figures (%+v)", i, r, p.ID, stored)
		}
	}
	// Hidden by a moderator: in no figure.
	err = db.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("UPDATE puzzles SET hidden = 1 WHERE id = ?"), ung.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	if _, err := db.RatedPuzzles(ctx, func(r record.RatedPuzzle) error { got = append(got, r); return nil }); err != nil || len(got) != 2 {
		t.Errorf("with #%d hidden: %d rated, %v; want 2", ung.ID, len(got), err)
	}
	stop := errors.New("stop")
	if _, err := db.RatedPuzzles(ctx, func(record.RatedPuzzle) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("fn's error: %v", err)
	}
}
