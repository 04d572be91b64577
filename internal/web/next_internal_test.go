package web

import (
	"context"
	"math"
	"net/url"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// The players' fake keeps no figures: no solves, no class to offer, no
// rated puzzle. It gives the route table its /api/next and ratings routes
// (TestRoutesDocumented); the real behaviour is tested over the store
// (next_test.go, ratings_test.go).
func (f *fakePlayers) UsualSeconds(context.Context, int64, int) (float64, int, error) {
	return 0, 0, nil
}

func (f *fakePlayers) NextPuzzle(context.Context, int64, float64) (record.Puzzle, float64, error) {
	return record.Puzzle{}, 0, record.ErrNotFound
}

func (f *fakePlayers) PuzzleDifficulty(context.Context, int64) (float64, error) {
	return 0, record.ErrNotFound
}

func (f *fakePlayers) NextPuzzleFrom(context.Context, int64, float64, int64, int) (record.Puzzle, float64, error) {
	return record.Puzzle{}, 0, record.ErrNotFound
}

func (f *fakePlayers) RatedPuzzles(context.Context, func(record.RatedPuzzle) error) (int64, error) {
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

// TestRatingsOfFlat: a measure that is the same for every rated puzzle
// has no ρ and says so; one that varies has its ρ; with too few puzzles
// neither has one.
func TestRatingsOfFlat(t *testing.T) {
	var rows []record.RatedPuzzle
	for i := range MinRatedPuzzles {
		rows = append(rows, record.RatedPuzzle{ID: int64(i + 1), Backtracks: 0, SolveNS: int64(1000 + i), Clues: 25,
			GradeTenths: int64(12 + i), Technique: "Hidden Single", Plays: 3, PlayerSeconds: int64(60 + 10*i)})
	}
	v := RatingsOf(rows, int64(len(rows)))
	for _, m := range v.Measures {
		flat := m.Key == "backtracks" || m.Key == "clues" || m.Key == "technique"
		if m.Flat != flat || (m.Rho == nil) != flat || m.N != len(rows) {
			t.Errorf("%s: flat %v, ρ %v of %d; want flat %v of %d", m.Key, m.Flat, m.Rho, m.N, flat, len(rows))
		}
		if flat && m.RhoLabel() != "none: all alike" {
			t.Errorf("%s reads %q", m.Key, m.RhoLabel())
		}
	}
	if m := v.Measures[1]; m.Rho == nil || *m.Rho != 1 {
		t.Errorf("solve time against a time that grows with it: ρ %v, want 1", m.Rho)
	}
	v = RatingsOf(rows[:MinRatedPuzzles-1], int64(len(rows)))
	for _, m := range v.Measures {
		if m.Rho != nil || m.Flat || m.RhoLabel() != "not enough puzzles" {
			t.Errorf("%s with %d puzzles: ρ %v, flat %v", m.Key, m.N, m.Rho, m.Flat)
		}
	}
}
