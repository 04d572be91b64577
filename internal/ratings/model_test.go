package ratings

import (
	"math"
	"testing"
)

// TestSpearman: known values, ties sharing their mean rank, and NaN where
// ρ is undefined.
func TestSpearman(t *testing.T) {
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		// Ranks x: 1, 2.5, 2.5, 4; y: 1, 2, 3, 4: ρ = 4.5/sqrt(4.5*5).
		{[]float64{1, 2, 2, 3}, []float64{1, 2, 3, 4}, 4.5 / math.Sqrt(4.5*5)},
		{[]float64{3, 1, 2}, []float64{30, 20, 10}, 0.5}, // d = 0, -1, 1: 1 - 6·2/(3·8)
	} {
		if got := Spearman(tc.x, tc.y); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Spearman(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
	for _, bad := range [][2][]float64{{{1}, {1}}, {{1, 1, 1}, {1, 2, 3}}, {{1, 2}, {1, 2, 3}}} {
		if got := Spearman(bad[0], bad[1]); !math.IsNaN(got) {
			t.Errorf("Spearman(%v, %v) = %v, want NaN", bad[0], bad[1], got)
		}
	}
	if r := Ranks([]float64{5, 1, 5, 5}); r[0] != 3 || r[1] != 1 || r[2] != 3 || r[3] != 3 {
		t.Errorf("Ranks = %v, want [3 1 3 3]", r)
	}
}

// TestObservation: the clamp, the hints' penalty (solves only, capped), and
// a give-up counted longer than both the time spent and the prediction.
func TestObservation(t *testing.T) {
	if y := (Observation{Seconds: 1, Solved: true}).Target(); y != math.Log(MinSeconds) {
		t.Errorf("1 s counts as %v, want log %d", y, MinSeconds)
	}
	if y := (Observation{Seconds: 10 * MaxSeconds, Solved: true}).Target(); y != math.Log(MaxSeconds) {
		t.Errorf("ten days count as %v, want log %d", y, MaxSeconds)
	}
	h := Observation{Seconds: 100, Solved: true, Hints: 2}.Target() - math.Log(100)
	if math.Abs(h-2*HintPenalty) > 1e-12 {
		t.Errorf("two hints add %v, want %v", h, 2*HintPenalty)
	}
	if h := (Observation{Seconds: 100, Solved: true, Hints: 1000}).Target() - math.Log(100); math.Abs(h-MaxPenalisedHints*HintPenalty) > 1e-12 {
		t.Errorf("1000 hints add %v, want the cap %v", h, MaxPenalisedHints*HintPenalty)
	}
	for _, mu := range []float64{2, 4.6, 6, 9, 60} {
		g := Observation{Seconds: 100}
		v := g.Value(mu)
		if v < math.Log(100) || v < mu || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("a give-up at 100 s with prediction %v counts as %v", mu, v)
		}
	}
}

// TestUpdate: a slow solve makes the class harder and the player weaker, a
// fast one the other way, a give-up never easier; the move is clamped and
// shrinks as plays accumulate.
func TestUpdate(t *testing.T) {
	c := NewClass(math.Log(600))
	p := Player{}
	slow, sp := Update(c, p, Observation{Seconds: 1200, Solved: true})
	if slow.Difficulty <= c.Difficulty || sp.Ability >= 0 || slow.Plays != 1 || slow.Solves != 1 || sp.Rated != 1 {
		t.Errorf("slow solve: %+v %+v", slow, sp)
	}
	fast, fp := Update(c, p, Observation{Seconds: 60, Solved: true})
	if fast.Difficulty >= c.Difficulty || fp.Ability <= 0 {
		t.Errorf("fast solve: %+v %+v", fast, fp)
	}
	gave, _ := Update(c, p, Observation{Seconds: 30})
	if gave.Difficulty < c.Difficulty || gave.Solves != 0 || gave.Plays != 1 {
		t.Errorf("give-up: %+v", gave)
	}
	huge, _ := Update(c, p, Observation{Seconds: MaxSeconds, Solved: true})
	if d := huge.Difficulty - c.Difficulty; d > MaxResidual/(PriorWeight+1)+1e-12 {
		t.Errorf("one attempt moved the difficulty by %v, more than the clamp allows", d)
	}
	c2 := c
	for range 50 {
		c2, _ = Update(c2, Player{}, Observation{Seconds: 600, Solved: true})
	}
	late, _ := Update(c2, p, Observation{Seconds: 1200, Solved: true})
	if late.Difficulty-c2.Difficulty >= slow.Difficulty-c.Difficulty {
		t.Error("the 52nd play moved the class as much as the first")
	}
	if c.Seconds() != 0 || c2.Seconds() != int64(math.Round(math.Exp(c2.Difficulty))) {
		t.Errorf("Seconds: %d before any play, %d after 50", c.Seconds(), c2.Seconds())
	}
	if s := PlayerOf(2, 3).Skill(); math.Abs(s-2) > 1e-12 {
		t.Errorf("PlayerOf(2).Skill() = %v", s)
	}
}

// TestPrior: the default passes through its two documented points, and
// FitPrior recovers a line from enough classes and refuses too few.
func TestPrior(t *testing.T) {
	if s := math.Exp(DefaultPrior.Of(20)); math.Abs(s-300) > 1e-6 {
		t.Errorf("default prior at grade 2: %v s, want 300", s)
	}
	if s := math.Exp(DefaultPrior.Of(70)); math.Abs(s-1800) > 1e-6 {
		t.Errorf("default prior at grade 7: %v s, want 1800", s)
	}
	var grades []int64
	var cs []Class
	for i := range 30 {
		g := int64(15 + 3*i)
		grades = append(grades, g)
		cs = append(cs, Class{Difficulty: 4 + 0.4*float64(g)/10, Plays: MinPlays})
	}
	p, ok := FitPrior(grades, cs)
	if !ok || math.Abs(p.Alpha-4) > 1e-9 || math.Abs(p.Beta-0.4) > 1e-9 {
		t.Errorf("FitPrior = %+v, %v; want alpha 4, beta 0.4", p, ok)
	}
	if _, ok := FitPrior(grades[:MinPriorClasses-1], cs[:MinPriorClasses-1]); ok {
		t.Error("FitPrior fitted too few classes")
	}
}
