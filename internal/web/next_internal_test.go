package web

import (
	"context"
	"math"
	"net/url"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The players' fake keeps no figures: no solves, no class to offer, no
// rated puzzle. It gives the route table its /api/next and ratings routes
// (TestRoutesDocumented); the real behaviour is tested over the store
// (next_test.go, ratings_test.go).
func (f *fakePlayers) UsualSeconds(context.Context, int64, int) (float64, int, error) {
	return 0, 0, nil
}

func (f *fakePlayers) NextPuzzle(context.Context, int64, float64) (sudoku.Puzzle, float64, error) {
	return sudoku.Puzzle{}, 0, sudoku.ErrNotFound
}

func (f *fakePlayers) RatedPuzzles(context.Context, func(sudoku.RatedPuzzle) error) (int64, error) {
	return 0, nil
}

// TestAimFor: the difficulty aimed at meets the usual time for the
// player's skill (exp(b − a) = T), a newcomer aims at NewPlayerSeconds,
// and harder and easier move the time by NextStep.
func TestAimFor(t *testing.T) {
	for _, tc := range []struct {
		skill, usual float64
		move         int
		want         float64 // seconds aimed at
	}{
		{1, 0, 0, NewPlayerSeconds},
		{2, 0, 1, NewPlayerSeconds * NextStep},
		{0.5, 600, -1, 600 / NextStep},
		{math.NaN(), 120, 0, 120}, // a skill that is no number counts as typical
		{-1, 120, 0, 120},
	} {
		aim := aimFor(tc.skill, tc.usual, tc.move)
		if math.Abs(aim.Seconds-tc.want) > 1e-9 {
			t.Errorf("aimFor(%v, %v, %d) aims at %v s, want %v", tc.skill, tc.usual, tc.move, aim.Seconds, tc.want)
		}
		if got := math.Exp(aim.Difficulty - aim.Ability); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("aimFor(%v, %v, %d): the player is expected %v s at the difficulty aimed at, want %v", tc.skill, tc.usual, tc.move, got, tc.want)
		}
	}
}

// TestNextMove reads harder and easier, refusing both and bad values.
func TestNextMove(t *testing.T) {
	for q, want := range map[string]int{"": 0, "harder=1": 1, "easier=true": -1, "harder=0&easier=0": 0} {
		v, _ := url.ParseQuery(q)
		if got, err := nextMove(v); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", q, got, err, want)
		}
	}
	for _, q := range []string{"harder=1&easier=1", "harder=x", "easier=-1"} {
		v, _ := url.ParseQuery(q)
		if _, err := nextMove(v); err == nil {
			t.Errorf("%q: no error", q)
		}
	}
}
