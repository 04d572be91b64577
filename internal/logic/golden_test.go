package logic

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestGolden renders the first step of each technique met on a fixed set of
// puzzles; testdata/steps.golden holds the hand-checked texts.
func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	var out strings.Builder
	puzzles := puzzletest.Lines(t, puzzletest.Diabolical, 60)
	puzzles = append(puzzles, puzzletest.Lines(t, puzzletest.Top1465, 10)...)
	// Rated puzzles whose paths show the rarer techniques: unique rectangle
	// type 3 (73), XY-Chain (74), BUG type 4 (2293).
	rated := puzzletest.RatedPuzzles(t, 2294)
	for _, i := range []int{73, 74, 2293} {
		puzzles = append(puzzles, rated[i].Puzzle)
	}
	for i, p := range puzzles {
		r, err := Solve(parse(t, p), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for j, st := range r.Steps {
			if seen[st.Technique] {
				continue
			}
			seen[st.Technique] = true
			fmt.Fprintf(&out, "puzzle %d step %d\n%s\n%.1f %s\n\n", i, j, p, st.Grade, st.Text)
		}
	}
	path := filepath.Join("testdata", "steps.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != out.String() {
		t.Errorf("step texts differ from %s; got:\n%s", path, out.String())
	}
}
