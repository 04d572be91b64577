package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// testDaily records puzzles of the day: a date keeps the first puzzle
// recorded for it, and no puzzle, however written, is the puzzle of two
// dates.
func testDaily(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	lines := puzzletest.Lines(t, puzzletest.Top1465, 2)
	var ps []record.Puzzle
	for _, l := range lines {
		g, _ := sudoku.Parse(l)
		p, _, err := db.Submit(ctx, rate(t, g))
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	other, _, err := db.Submit(ctx, rate(t, shuffled(rand.New(rand.NewPCG(5, 6)), ps[0].Givens)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Daily(ctx, "2026-11-23"); !errors.Is(err, record.ErrNotFound) {
		t.Fatalf("no daily yet: %v", err)
	}
	got, err := db.SetDaily(ctx, "2026-11-23", ps[0])
	if err != nil || got.ID != ps[0].ID {
		t.Fatalf("set: %d, %v", got.ID, err)
	}
	if got, err := db.SetDaily(ctx, "2026-11-23", ps[1]); err != nil || got.ID != ps[0].ID {
		t.Errorf("a second puzzle for the same date: %d, %v; want the first, %d", got.ID, err, ps[0].ID)
	}
	if _, err := db.SetDaily(ctx, "2026-11-24", other); !errors.Is(err, record.ErrDailyRepeat) {
		t.Errorf("the same puzzle written another way for another date: %v, want ErrDailyRepeat", err)
	}
	if got, err := db.SetDaily(ctx, "2026-11-24", ps[1]); err != nil || got.ID != ps[1].ID {
		t.Errorf("another puzzle for another date: %d, %v", got.ID, err)
	}
	if got, err := db.Daily(ctx, "2026-11-23"); err != nil || got.ID != ps[0].ID {
		t.Errorf("daily: %d, %v", got.ID, err)
	}
}
