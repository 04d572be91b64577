package variant

import (
	"math/rand/v2"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The generator of the test puzzles (testdata/puzzles.txt, written by
// TestGenerate with -update): a random solution of the global rules, rules
// with cells read off that solution, then givens taken away one by one
// while the solution stays unique.

// randomFill returns a random solution of p's rules (its givens kept), or
// false: digits placed at random, each propagated, a dead end taken back.
func randomFill(r *rand.Rand, p Puzzle) (sudoku.Grid, bool) {
	m, err := compile(p)
	if err != nil {
		return sudoku.Grid{}, false
	}
	for range 50 {
		bd := m.newBoard(p.Givens)
		if !m.propagate(&bd) {
			return sudoku.Grid{}, false
		}
		// A dozen random digits, then the search completes the grid.
		for placed := 0; placed < 12 && !bd.solved(); placed++ {
			var free []int
			for c := range 81 {
				if bd.val[c] == 0 {
					free = append(free, c)
				}
			}
			c := free[r.IntN(len(free))]
			var ds []uint16
			for x := bd.cand[c]; x != 0; x &= x - 1 {
				ds = append(ds, x&-x)
			}
			nb := bd
			nb.cand[c] = ds[r.IntN(len(ds))]
			if !m.propagate(&nb) {
				break
			}
			bd = nb
		}
		var g sudoku.Grid
		copy(g[:], bd.val[:])
		res, err := m.solve(g, sudoku.Options{MaxNodes: 100_000}, true)
		if err == nil && res.Solutions > 0 {
			return res.Solution, true
		}
	}
	return sudoku.Grid{}, false
}

// reduce takes givens away from p (whose givens are its solution) in a
// random order while it keeps one solution that the search proves within
// maxNodes nodes (0: the default budget). A budget keeps the test sets to
// puzzles the engine proves in milliseconds: without one, minimal
// non-consecutive and little killer puzzles take it 100,000 nodes and more
// (docs/variants.md, "What the solver does not do yet").
func reduce(r *rand.Rand, p Puzzle, maxNodes int64) Puzzle {
	m, _ := compile(p)
	for _, c := range r.Perm(81) {
		d := p.Givens[c]
		if d == 0 {
			continue
		}
		p.Givens[c] = 0
		res, err := m.solve(p.Givens, sudoku.Options{MaxNodes: maxNodes}, false)
		if err != nil || res.Solutions != 1 {
			p.Givens[c] = d
		}
	}
	return p
}

// walk returns a random line of n cells from a random start, each touching
// the one before (orthogonally only when ortho), where ok accepts each next
// cell given the line so far. Nil when it gets stuck.
func walk(r *rand.Rand, n int, ortho bool, ok func(line []Cell, next Cell) bool) []Cell {
	line := []Cell{Cell(r.IntN(81))}
	moves := kingMoves
	if ortho {
		moves = kingMoves[4:]
	}
	for len(line) < n {
		var next []Cell
		for _, c := range moveCells(line[len(line)-1], moves) {
			if !slices.Contains(line, c) && ok(line, c) {
				next = append(next, c)
			}
		}
		if len(next) == 0 {
			return nil
		}
		line = append(line, next[r.IntN(len(next))])
	}
	return line
}

func intp(v int) *int { return &v }

// randomRegions returns jigsaw regions: the boxes, with cells traded
// between neighbouring regions while every region stays connected.
func randomRegions(r *rand.Rand) string {
	b := []byte{}
	for c := range 81 {
		b = append(b, byte('1'+c/27*3+c%9/3))
	}
	for done := 0; done < 40; {
		pr := orthogonalPairs[r.IntN(len(orthogonalPairs))]
		q := orthogonalPairs[r.IntN(len(orthogonalPairs))]
		// Trade: pr[0] joins pr[1]'s region and a cell of that region
		// next to pr[0]'s region (q[1], when q fits) joins pr[0]'s.
		a, bb := pr[0], pr[1]
		ra, rb := b[a], b[bb]
		if ra == rb || b[q[0]] != ra || b[q[1]] != rb || q[1] == bb || q[0] == a {
			continue
		}
		try := slices.Clone(b)
		try[a], try[q[1]] = rb, ra
		s := string(try)
		if validRegions(0, Rule{Type: Jigsaw, Regions: s}) == nil {
			b = try
			done++
		}
	}
	return string(b)
}
