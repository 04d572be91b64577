package logic

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestGolden renders the first step of each technique met on a fixed set of
// puzzles; testdata/steps.golden holds the hand-checked texts.
func TestGolden(t *testing.T) {
	racefree.Only(t)
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

// pathsPer is how many puzzles of each collection, evenly spread,
// testdata/paths.golden pins (all of a smaller collection): 300, but 100 of
// the forum's hardest lists, whose every puzzle runs the chains until the
// budget stops it (about 35 ms each, two thirds of the test's CPU).
func pathsPer(collection string) int {
	if collection == puzzletest.Forum1905 || collection == puzzletest.Forum1106 {
		return 100
	}
	return 300
}

// TestPaths pins the whole path of 300 puzzles of every collection: each
// line of testdata/paths.golden is a puzzle's grade, Floor, step count,
// hardest technique and a hash of every field of every step (pathLine), so
// a refactor that changes any step anywhere on those paths fails here.
// -short checks the first 30 of each collection; -update rewrites the file
// (from a full run only). Under -race it skips: make test's second pass
// runs it whole, without the detector (internal/racefree).
func TestPaths(t *testing.T) {
	racefree.Only(t)
	short := testing.Short()
	if short && *update {
		t.Fatal("-update needs the full run (no -short)")
	}
	var samples []pathSample
	for _, c := range puzzletest.Collections {
		s := evenSample(t, c, pathsPer(c))
		if short {
			s = s[:min(len(s), 30)]
		}
		samples = append(samples, s...)
	}
	got := pathLines(t, samples)
	path := filepath.Join("testdata", "paths.golden")
	if *update {
		if err := os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	want := map[string]string{} // "collection line" -> the whole line
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(l)
		want[f[0]+" "+f[1]] = l
	}
	bad := 0
	for i, l := range got {
		key := fmt.Sprintf("%s %d", samples[i].collection, samples[i].line+1)
		if want[key] != l {
			if bad++; bad <= 10 {
				t.Errorf("path differs from %s:\n got %s\nwant %s", path, l, want[key])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d paths differ", bad, len(got))
	}
}
