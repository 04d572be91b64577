package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestCountBarUnits: a count bar names what it counts, as its caller says:
// rows for sudoku copy (every table's), puzzles for the commands that count
// puzzles (newCountBar).
func TestCountBarUnits(t *testing.T) {
	for _, units := range []string{copyUnits, "puzzles"} {
		var w strings.Builder
		bar := countBarTo(&w, "copying", units)
		bar.set(5, 10)
		bar.set(10, 10)
		bar.finish()
		// It ends with a line that stays, its rate per second (issue 34:
		// the bar vanished, its rate jumped from per hour to per second).
		if out := w.String(); !regexp.MustCompile(`copying: 10 ` + units + ` in \d+\.\d\ds \(\d+ ` + units + `/s\)\n$`).MatchString(out) {
			t.Errorf("the bar of %s writes %q", units, out)
		}
	}
	if copyUnits != "rows" {
		t.Errorf("sudoku copy counts %q, want rows", copyUnits)
	}
}
