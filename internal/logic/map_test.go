package logic

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// transform is a validity-preserving relabelling of a grid.
type transform struct {
	rows, cols [9]int // new row of old row r, new column of old column c
	transpose  bool
	digits     [10]int
}

func randomTransform(r *rand.Rand) transform {
	var t transform
	perm3 := func() [3]int {
		p := r.Perm(3)
		return [3]int{p[0], p[1], p[2]}
	}
	line := func() [9]int {
		var out [9]int
		bands := perm3()
		for b := range 3 {
			in := perm3()
			for k := range 3 {
				out[b*3+k] = bands[b]*3 + in[k]
			}
		}
		return out
	}
	t.rows, t.cols = line(), line()
	t.transpose = r.IntN(2) == 1
	p := r.Perm(9)
	for d := 1; d <= 9; d++ {
		t.digits[d] = p[d-1] + 1
	}
	return t
}

func (t transform) cell(c int) int {
	r, k := t.rows[c/9], t.cols[c%9]
	if t.transpose {
		r, k = k, r
	}
	return r*9 + k
}

func (t transform) digit(d int) int { return t.digits[d] }

func (t transform) grid(g sudoku.Grid) sudoku.Grid {
	var h sudoku.Grid
	for c, v := range g {
		if v != 0 {
			h[t.cell(c)] = uint8(t.digit(int(v)))
		}
	}
	return h
}

// TestMap maps every step of a path through a random transformation and
// checks it on the transformed puzzle: sound, and its text names the mapped
// cells and units.
// One goroutine's paths: make test runs it without -race
// (internal/racefree).
func TestMap(t *testing.T) {
	racefree.Only(t)
	rng := rand.New(rand.NewPCG(1, 2))
	n := 40
	if testing.Short() {
		n = 10
	}
	for i, p := range puzzletest.Lines(t, puzzletest.Diabolical, n) {
		g := parse(t, p)
		tr := randomTransform(rng)
		h := tr.grid(g)
		res, err := sudoku.Solve(h, sudoku.Options{})
		if err != nil || res.Solutions != 1 {
			t.Fatalf("puzzle %d: transformed grid: %v %d", i, err, res.Solutions)
		}
		r, err := Solve(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var mapped Result
		mapped.Floor = r.Floor
		for _, st := range r.Steps {
			m := st.Map(tr.cell, tr.digit)
			mapped.Steps = append(mapped.Steps, m)
			for _, u := range m.Units {
				if !strings.Contains(m.Text, unitName(u)) {
					t.Fatalf("puzzle %d: mapped text %q lacks %s", i, m.Text, unitName(u))
				}
			}
			for _, e := range m.Eliminations {
				if !strings.Contains(m.Text, cellName(e.Cell)) {
					t.Fatalf("puzzle %d: mapped text %q lacks %s", i, m.Text, cellName(e.Cell))
				}
			}
			for _, u := range st.Units {
				mu := unitThrough(tr.cell(unitCells[u][0]), tr.cell(unitCells[u][4]))
				for _, c := range unitCells[u] {
					if !unitSet[mu].has(tr.cell(c)) {
						t.Fatalf("unit %s does not map onto %s", unitName(u), unitName(mu))
					}
				}
			}
		}
		mapped.Solved = r.Solved
		checkPath(t, "mapped", h, mapped)
		// The canonical promise: the transformed puzzle grades the same.
		r2, err := Solve(h, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r2.Grade != r.Grade && testing.Verbose() {
			t.Logf("puzzle %d: grade %.1f, transformed %.1f (tie-breaks follow cell order)", i, r.Grade, r2.Grade)
		}
	}
}
