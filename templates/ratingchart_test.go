package templates

import (
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// TestRatingChart lays out histories of one point, of a flat rating and of
// a wide one: every dot and the line inside the plot, ticks whole steps
// covering every rating, the words naming the rating now.
func TestRatingChart(t *testing.T) {
	at := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, skills := range [][]float64{{1}, {1, 1, 1}, {0.2, 1, 3.5, 9, 1.1}, {1.3, 1.31}} {
		var v MeView
		for i, k := range skills {
			v.Summary.Skills = append(v.Summary.Skills, account.SkillPoint{At: at.Add(time.Duration(i) * time.Hour), Skill: k})
		}
		c := v.RatingChart()
		if len(c.Marks) != len(skills) || len(strings.Fields(c.Points)) != len(skills) || len(c.YTicks) < 2 {
			t.Fatalf("%v: %d marks, points %q, %d ticks", skills, len(c.Marks), c.Points, len(c.YTicks))
		}
		for _, m := range c.Marks {
			if m.X < ratingLeft || m.X > ratingW-ratingRight || m.Y < ratingTop || m.Y > ratingH-ratingBottom {
				t.Errorf("%v: a dot at %.1f,%.1f outside the plot", skills, m.X, m.Y)
			}
		}
		first, last := c.YTicks[0], c.YTicks[len(c.YTicks)-1]
		if first.Pos < last.Pos || first.Pos > ratingH-ratingBottom+0.01 || last.Pos < ratingTop-0.01 {
			t.Errorf("%v: ticks %+v", skills, c.YTicks)
		}
		if !strings.Contains(c.Label, "now") || !strings.HasPrefix(c.Marks[len(c.Marks)-1].Label, "rating ") {
			t.Errorf("%v: words %q, %q", skills, c.Label, c.Marks[len(c.Marks)-1].Label)
		}
	}
	if c := (MeView{}).RatingChart(); len(c.Marks) != 0 {
		t.Errorf("no history: %+v", c)
	}
}
