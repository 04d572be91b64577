package main

import (
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
		if out := w.String(); !strings.Contains(out, " "+units+"/") || !strings.Contains(out, "copying") {
			t.Errorf("the bar of %s writes %q", units, out)
		}
	}
	if copyUnits != "rows" {
		t.Errorf("sudoku copy counts %q, want rows", copyUnits)
	}
}
