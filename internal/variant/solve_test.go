package variant

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// classicLines reads a file of one classic puzzle per line from package
// sudoku's test data.
func classicLines(t testing.TB, name string) []sudoku.Grid {
	t.Helper()
	f, err := os.Open("../sudoku/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sudoku.Grid
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		g, err := sudoku.ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

// TestModelAgreesWithClassic runs classic puzzles through the variant
// model (no rules, so houses and singles only) and expects package
// sudoku's solution and counts: the same search, the same measures.
func TestModelAgreesWithClassic(t *testing.T) {
	for _, name := range []string{"top1465_first20.txt", "hardest1106_first10.txt", "norvig_easy50.txt"} {
		for _, g := range classicLines(t, name) {
			want, err := sudoku.Solve(g, sudoku.Options{})
			if err != nil {
				t.Fatal(err)
			}
			m, _ := compile(Puzzle{Givens: g})
			got, err := m.solve(g, sudoku.Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s:\nvariant %+v\nsudoku  %+v", g, got, want)
			}
		}
	}
}

// TestClassicGoesThroughSudoku: a puzzle without rules is package
// sudoku's, solve and canonical form alike.
func TestClassicGoesThroughSudoku(t *testing.T) {
	g := classicLines(t, "top1465_first20.txt")[0]
	r, err := Solve(Puzzle{Givens: g}, sudoku.Options{})
	want, _ := sudoku.Solve(g, sudoku.Options{})
	if err != nil || r != want {
		t.Fatalf("Solve %+v %v, want %+v", r, err, want)
	}
	c, _, err := Canonical(Puzzle{Givens: g}, sudoku.Options{})
	wc, _, _ := sudoku.Canonical(g, sudoku.Options{})
	if err != nil || c.Givens != wc || c.Rules != nil {
		t.Fatalf("Canonical %v %v, want %v", c, err, wc)
	}
}
