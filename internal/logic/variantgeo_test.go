package logic

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// boxRegions is a jigsaw's regions string whose regions are the boxes.
var boxRegions = func() string {
	var b strings.Builder
	for c := range 81 {
		b.WriteByte(byte('1' + boxOf(c)))
	}
	return b.String()
}()

// TestJigsawOfBoxesIsClassic: a jigsaw whose regions are the nine boxes
// grades exactly as the classic puzzle, path and all (issue 48).
func TestJigsawOfBoxesIsClassic(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	for _, r := range puzzletest.RatedPuzzles(t, n) {
		g := parse(t, r.Puzzle)
		want, err := Solve(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := variant.Puzzle{Givens: g, Rules: []variant.Rule{{Type: variant.Jigsaw, Regions: boxRegions}}}
		got, err := GradeVariant(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Grade != want.Grade || got.Technique != want.Technique || got.Floor != want.Floor || !reflect.DeepEqual(got.Steps, want.Steps) {
			t.Errorf("%s: jigsaw of boxes %.1f %s (%d steps), classic %.1f %s (%d steps)",
				r.Puzzle, got.Grade, got.Technique, len(got.Steps), want.Grade, want.Technique, len(want.Steps))
		}
	}
}

// TestGeometryClassic: the classic geometry built from the tables is the
// tables, and a geometry with an extra house is not classic.
func TestGeometryClassic(t *testing.T) {
	if !classicGeo.classic || !classicGeo.boxes {
		t.Fatal("the classic geometry is not classic")
	}
	for c := range 81 {
		if !reflect.DeepEqual(classicGeo.peers[c], peers[c][:]) || classicGeo.unit[c] != cellUnit[c] {
			t.Fatalf("cell %d: the classic geometry differs from the tables", c)
		}
	}
	g, err := variantGeometry(variant.Puzzle{Rules: []variant.Rule{{Type: variant.DiagonalMinus}}})
	if err != nil || g.classic || !g.boxes || !g.sees[0].has(80) {
		t.Fatalf("diagonal geometry: classic %v boxes %v, r1c1 sees r9c9 %v (%v)", g.classic, g.boxes, g.sees[0].has(80), err)
	}
}

// TestWindowGroups: groups 1-4 of windowGroups are the windows
// package variant draws.
func TestWindowGroups(t *testing.T) {
	ws := windowGroups()
	for i, w := range variant.DrawnRegions(variant.Windoku) {
		if nineOf(w) != ws[i+1] {
			t.Errorf("window %d: %v, package variant %v", i+1, ws[i+1], w)
		}
	}
}

// variantTestPuzzle is one line of package variant's test puzzles.
type variantTestPuzzle struct {
	name      string
	solutions string
	p         variant.Puzzle
}

// variantTestPuzzles reads package variant's test puzzles.
func variantTestPuzzles(t *testing.T) []variantTestPuzzle {
	data, err := os.ReadFile(filepath.Join("..", "variant", "testdata", "puzzles.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []variantTestPuzzle
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		p, err := variant.Parse([]byte(f[2]))
		if err != nil {
			t.Fatalf("%s: %v", f[0], err)
		}
		out = append(out, variantTestPuzzle{f[0], f[1], p})
	}
	return out
}

// TestVariantStepsTrue grades package variant's test puzzles of the rules
// the solver reasons with, and checks every step against variant.Solve's
// solution: each placement is the solution's digit, no elimination removes
// it. Ambiguous ones fail with ErrMultipleSolutions, the others with
// ErrNotGraded.
func TestVariantStepsTrue(t *testing.T) {
	graded := 0
	for _, vp := range variantTestPuzzles(t) {
		r, err := GradeVariant(vp.p, Options{})
		switch {
		case errors.Is(err, ErrNotGraded):
			continue
		case vp.solutions != "1":
			if !errors.Is(err, ErrMultipleSolutions) {
				t.Errorf("%s: ambiguous, got %v", vp.name, err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", vp.name, err)
			continue
		}
		graded++
		sol, err := variant.Solve(vp.p, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkSteps(t, vp.name, r, sol.Solution)
		t.Logf("%-16s %4.1f %-28s floor %v, %d steps", vp.name, r.Grade, r.Technique, r.Floor, len(r.Steps))
	}
	if graded < 20 {
		t.Errorf("only %d puzzles graded", graded)
	}
}

// checkSteps checks a path's steps against the solution.
func checkSteps(t *testing.T, name string, r Result, sol sudoku.Grid) {
	t.Helper()
	for i, st := range r.Steps {
		for _, p := range st.Placements {
			if int(sol[p.Cell]) != p.Digit {
				t.Errorf("%s step %d (%s) places %d in %s, the solution has %d: %s", name, i, st.Technique, p.Digit, cellName(p.Cell), sol[p.Cell], st.Text)
			}
		}
		for _, e := range st.Eliminations {
			if int(sol[e.Cell]) == e.Digit {
				t.Errorf("%s step %d (%s) removes the solution's %d from %s: %s", name, i, st.Technique, e.Digit, cellName(e.Cell), st.Text)
			}
		}
	}
	if !r.Floor && !r.Solved {
		t.Errorf("%s: neither solved nor a floor", name)
	}
}

// TestGradeVariantNotGraded: rules without techniques get no grade.
func TestGradeVariantNotGraded(t *testing.T) {
	total := 10
	p := variant.Puzzle{Rules: []variant.Rule{{Type: variant.Killer, Cells: []variant.Cell{0, 1}, Total: &total}}}
	if _, err := GradeVariant(p, Options{}); !errors.Is(err, ErrNotGraded) || !strings.Contains(err.Error(), "killer") {
		t.Fatalf("killer: %v, want ErrNotGraded naming killer", err)
	}
}
