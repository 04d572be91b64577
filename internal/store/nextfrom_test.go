package store

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// nextFromSuite is the suite's part for GET /api/next&from= (nextfrom.go;
// added to the suite in suite_test.go).
var nextFromSuite = []suiteCase{
	{"NextFromMoves", testNextFromMoves},
	{"NextFromNeverTheSame", testNextFromNeverTheSame},
}

// realArchiveSize is how many real graded puzzles testNextFromMoves
// archives.
const realArchiveSize = 1000

// realGraded returns realArchiveSize real puzzles with Sukaku Explainer's
// rating as their grade (the archive's grade agrees with it to ±0.2,
// docs/grading.md): the held-out table (grades 1.0 to 12), then the
// diabolical one (5.0 to 9.3). The engine's measures are taken once per
// test run, for both stores (the first caller's t reports a failure).
func realGraded(t *testing.T) []record.Puzzle {
	t.Helper()
	realOnce.Do(func() {
		rated := puzzletest.RatedFile(t, puzzletest.HeldOutRate, 0)
		rated = append(rated, puzzletest.RatedFile(t, puzzletest.DiabolicalRate, realArchiveSize-len(rated))...)
		ps := make([]record.Puzzle, len(rated))
		for i, r := range rated {
			g, err := sudoku.Parse(r.Puzzle)
			if err != nil {
				t.Fatal(err)
			}
			if ps[i], err = record.Rate(g, sudoku.Options{Runs: 1}); err != nil {
				t.Fatal(err)
			}
			grade := math.Round(r.Rating*10) / 10
			ps[i].Grade, ps[i].Technique, ps[i].GradeVersion = &grade, "Sukaku Explainer", "test"
		}
		realPuzzles = ps
	})
	if len(realPuzzles) != realArchiveSize {
		t.Fatalf("%d real graded puzzles, want %d", len(realPuzzles), realArchiveSize)
	}
	return realPuzzles
}

var (
	realOnce    sync.Once
	realPuzzles []record.Puzzle
)

// realArchive archives realGraded in db, graded, and returns them as
// stored (the repeats of a class left out).
func realArchive(t *testing.T, db *DB) []record.Puzzle {
	t.Helper()
	ctx := context.Background()
	ps := realGraded(t)
	dup, err := db.AddMany(ctx, ps)
	if err != nil {
		t.Fatal(err)
	}
	grade := map[sudoku.Grid]record.Puzzle{}
	for i, p := range ps {
		if !dup[i] {
			grade[p.Givens] = p
		}
	}
	var stored []record.Puzzle
	q := record.ListQuery{Sort: record.SortSubmitted, Limit: record.MaxLimit, Distinct: true}
	for {
		page, err := db.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Puzzles {
			g := grade[p.Givens]
			p.Grade, p.Technique, p.GradeVersion = g.Grade, g.Technique, g.GradeVersion
			stored = append(stored, p)
		}
		if q.Cursor = page.NextCursor; q.Cursor == "" {
			break
		}
	}
	if err := db.SetGrades(ctx, stored); err != nil {
		t.Fatal(err)
	}
	return stored
}

// testNextFromMoves: on an archive of 1,000 real graded puzzles, from
// each of 100 random starting puzzles, Harder gives a puzzle of a higher
// grade and Easier one of a lower grade every time such a puzzle exists
// (nobody has played, so the grade decides), never the start's class;
// record.ErrNotFound only when none exists.
func testNextFromMoves(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := realArchive(t, db)
	rng := rand.New(rand.NewPCG(33, 1))
	step := math.Log(1.5)
	moved := 0
	for range 100 {
		from := ps[rng.IntN(len(ps))]
		b, err := db.PuzzleDifficulty(ctx, from.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range []int{1, -1} {
			exists := false
			for _, p := range ps {
				if dir*int(p.GradeTenths()-from.GradeTenths()) > 0 {
					exists = true
				}
			}
			got, _, err := db.NextPuzzleFrom(ctx, 0, b+float64(dir)*step, from.ID, dir)
			if err == nil {
				moved++
			}
			switch {
			case !exists && !errors.Is(err, record.ErrNotFound):
				t.Errorf("from #%d (%.1f) dir %d: #%d, %v; want none", from.ID, *from.Grade, dir, got.ID, err)
			case exists && err != nil:
				t.Errorf("from #%d (%.1f) dir %d: %v; want a puzzle", from.ID, *from.Grade, dir, err)
			case exists && dir*int(got.GradeTenths()-from.GradeTenths()) <= 0:
				t.Errorf("from #%d (%.1f) dir %d: #%d of grade %.1f", from.ID, *from.Grade, dir, got.ID, *got.Grade)
			case exists && got.Canonical == from.Canonical:
				t.Errorf("from #%d dir %d: #%d, the same puzzle", from.ID, dir, got.ID)
			}
		}
	}
	if moved < 190 { // a start of the lowest or highest grade has no move that way, rarely
		t.Errorf("only %d of 200 moves found a puzzle", moved)
	}
}

// testNextFromNeverTheSame: Next, Harder and Easier from a puzzle never
// give it or another way of writing it, even when it is the only one
// near; a class with plays is compared by its fitted difficulty (the
// player's expected time), not its grade; a from that names no puzzle is
// record.ErrNotFound.
func testNextFromNeverTheSame(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := gradedArchive(t, db, []int64{20, 45, 72})
	other := synthetic(300, 1, 1000, 1) // ps[1] written another way
	other.Canonical = ps[1].Canonical
	o, _, err := db.Submit(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	prior := ratings.DefaultPrior
	for _, tc := range []struct {
		from int64
		dir  int
		want int64
	}{
		{ps[1].ID, 0, ps[0].ID}, {o.ID, 0, ps[0].ID}, // at 4.5's own level: the nearer of the others
		{ps[1].ID, 1, ps[2].ID}, {ps[1].ID, -1, ps[0].ID},
		{ps[2].ID, 1, 0}, {ps[0].ID, -1, 0},
	} {
		got, _, err := db.NextPuzzleFrom(ctx, 0, prior.Of(45), tc.from, tc.dir)
		if tc.want == 0 {
			if !errors.Is(err, record.ErrNotFound) {
				t.Errorf("from #%d dir %d: #%d, %v; want none", tc.from, tc.dir, got.ID, err)
			}
			continue
		}
		if err != nil || got.ID != tc.want {
			t.Errorf("from #%d dir %d: #%d, %v; want #%d", tc.from, tc.dir, got.ID, err, tc.want)
		}
	}
	if _, _, err := db.NextPuzzleFrom(ctx, 0, prior.Of(45), 9999, 1); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("from a puzzle that is not there: %v", err)
	}
	// One quick solve of the 2.0 (its class's b drops below the prior)
	// does not make another 2.0 harder than it: a class is placed by its
	// grade until it shows player_seconds.
	twin := gradedArchive(t, db, []int64{20})[0]
	quick := playAs(t, db, newPlayer(t, db, 89), ps[0].ID, 10, account.Finish{Outcome: account.OutcomeSolved})
	if got, _, err := db.NextPuzzleFrom(ctx, 0, prior.Of(20)+math.Log(1.5), ps[0].ID, 1); err != nil || got.ID == twin.ID {
		t.Errorf("harder than the 2.0 after a quick solve (attempt %d): #%d, %v; not the other 2.0 #%d", quick.ID, got.ID, err, twin.ID)
	}
	// Six slow solves more make the 2.0 harder than the 4.5 for everybody:
	// Harder from the 4.5 may now give it, Easier from the 2.0 the 4.5.
	for s := range byte(6) {
		playAs(t, db, newPlayer(t, db, 90+s), ps[0].ID, 3*3600, account.Finish{Outcome: account.OutcomeSolved})
	}
	b0, err := db.PuzzleDifficulty(ctx, ps[0].ID)
	if err != nil || b0 <= prior.Of(45) {
		t.Fatalf("the 2.0 after six three-hour solves: b %.3f, %v; want above the 4.5's %.3f", b0, err, prior.Of(45))
	}
	if got, _, err := db.NextPuzzleFrom(ctx, 0, b0-math.Log(1.5), ps[0].ID, -1); err != nil || got.ID != ps[1].ID {
		t.Errorf("easier than the slow 2.0: #%d, %v; want the 4.5 #%d", got.ID, err, ps[1].ID)
	}
}

// newPlayer makes a player with session s and returns its id.
func newPlayer(t *testing.T, db *DB, s byte) int64 {
	t.Helper()
	pl, err := db.NewPlayer(context.Background(), session(s), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return pl.ID
}
