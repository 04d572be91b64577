package ratings

import (
	"math"
	"testing"
)

// TestRating pins the rating's scale: typical 1500, 400 points a tenfold,
// rising with the skill, typical for a skill never learnt.
func TestRating(t *testing.T) {
	for skill, want := range map[float64]int{1: 1500, 10: 1900, 0.1: 1100, 2: 1620, 0.5: 1380, 0: 1500, -1: 1500, math.NaN(): 1500} {
		if got := Rating(skill); got != want {
			t.Errorf("Rating(%v) = %d, want %d", skill, got, want)
		}
	}
	prev := Rating(0.05)
	for s := 0.06; s < 20; s *= 1.1 {
		if r := Rating(s); r < prev {
			t.Errorf("Rating(%.3f) = %d < %d", s, r, prev)
		} else {
			prev = r
		}
	}
	if p := PlayerOf(2, 3); Rating(p.Skill()) != 1620 {
		t.Errorf("a player of skill 2: rating %d", Rating(p.Skill()))
	}
}
