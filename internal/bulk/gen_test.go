package bulk

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// transform returns g under a random symmetry of Sudoku: digits relabelled,
// bands and stacks permuted, rows within bands and columns within stacks
// permuted, and transposed half the time. The result has the same number of
// solutions and the same difficulty for any solver that does not depend on
// cell order, but is (almost always) a different puzzle.
func transform(g sudoku.Grid, r *rand.Rand) sudoku.Grid {
	var digit [10]uint8
	for i, d := range r.Perm(9) {
		digit[i+1] = uint8(d + 1)
	}
	lines := func() [9]int { // a permutation of 0-8 that keeps bands together
		var m [9]int
		bands := r.Perm(3)
		for b := range 3 {
			for i, j := range r.Perm(3) {
				m[b*3+i] = bands[b]*3 + j
			}
		}
		return m
	}
	rows, cols := lines(), lines()
	flip := r.IntN(2) == 1
	var out sudoku.Grid
	for i := range 9 {
		for j := range 9 {
			v := digit[g[rows[i]*9+cols[j]]]
			if flip {
				out[j*9+i] = v
			} else {
				out[i*9+j] = v
			}
		}
	}
	return out
}

// loadCollections returns the puzzles of the named standard collections.
func loadCollections(names ...string) ([]sudoku.Grid, error) {
	var gs []sudoku.Grid
	for _, name := range names {
		r, err := puzzletest.Open(name)
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, l := range strings.Fields(string(b)) {
			g, err := sudoku.Parse(l)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			gs = append(gs, g)
		}
	}
	return gs, nil
}

// easyCollections are the standard collections a slow engine still rates in
// well under a millisecond a puzzle.
var easyCollections = []string{puzzletest.Kaggle, puzzletest.Diabolical, puzzletest.Norvig}

// writeTransformed writes n puzzles to w, one per line: the puzzles of
// easyCollections over and over, each time under a fresh random symmetry
// (seeded, so the file is the same for the same seed). It returns n.
func writeTransformed(w io.Writer, n int, seed uint64) (int, error) {
	gs, err := loadCollections(easyCollections...)
	if err != nil {
		return 0, err
	}
	return writeTransformedFrom(w, n, seed, gs)
}

func writeTransformedFrom(w io.Writer, n int, seed uint64, gs []sudoku.Grid) (int, error) {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	bw := bufio.NewWriterSize(w, 1<<16)
	line := make([]byte, 82)
	line[81] = '\n'
	for i := range n {
		transform(gs[i%len(gs)], r).Append(line[:0])
		if _, err := bw.Write(line); err != nil {
			return i, err
		}
	}
	return n, bw.Flush()
}

// writeDistinctFrom writes n puzzles of (almost always) n different
// classes: puzzle i is gs[i%len(gs)] with one more given, its solution's
// digit in the (i/len(gs))-th empty cell, under a random symmetry. A given
// more keeps one solution, and makes another puzzle unless the puzzle has
// a symmetry that maps one added cell onto another (376 of a million from
// the 17-clue list). gs must have one solution each, and n at most
// len(gs) times their fewest empty cells.
func writeDistinctFrom(w io.Writer, n int, seed uint64, gs []sudoku.Grid) (int, error) {
	sols := make([]sudoku.Grid, len(gs))
	for i, g := range gs {
		res, err := sudoku.Solve(g, sudoku.Options{})
		if err != nil || res.Solutions != 1 {
			return 0, fmt.Errorf("puzzle %d: %d solutions, %v", i, res.Solutions, err)
		}
		sols[i] = res.Solution
	}
	r := rand.New(rand.NewPCG(seed, seed^0xd157))
	bw := bufio.NewWriterSize(w, 1<<16)
	line := make([]byte, 82)
	line[81] = '\n'
	for i := range n {
		b, more := i%len(gs), i/len(gs)
		g := gs[b]
		for c := range g {
			if g[c] != 0 {
				continue
			}
			if more == 0 {
				g[c] = sols[b][c]
				break
			}
			more--
		}
		if g.Clues() != gs[b].Clues()+1 {
			return i, fmt.Errorf("puzzle %d has too few empty cells for %d puzzles", b, n)
		}
		transform(g, r).Append(line[:0])
		if _, err := bw.Write(line); err != nil {
			return i, err
		}
	}
	return n, bw.Flush()
}

// TestTransformKeepsPuzzles checks that a transformed puzzle is still a
// valid puzzle with one solution, the same clue count, and that the
// solution transforms along.
func TestTransformKeepsPuzzles(t *testing.T) {
	gs, err := loadCollections(puzzletest.Norvig)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[sudoku.Grid]bool{}
	for i, g := range gs {
		for range 3 {
			h := transform(g, r)
			seen[h] = true
			if h.Clues() != g.Clues() {
				t.Fatalf("puzzle %d: %d clues after transform, want %d", i, h.Clues(), g.Clues())
			}
			res, err := sudoku.Solve(h, sudoku.Options{})
			if err != nil || res.Solutions != 1 {
				t.Fatalf("puzzle %d transformed: %d solutions, %v; want exactly one", i, res.Solutions, err)
			}
		}
	}
	if len(seen) < 3*len(gs)-3 {
		t.Errorf("only %d distinct puzzles from %d transforms", len(seen), 3*len(gs))
	}
}

// TestDistinctPuzzles checks writeDistinctFrom: every puzzle has one given
// more than its source and one solution, and (almost) every one is a class
// of its own.
func TestDistinctPuzzles(t *testing.T) {
	gs, err := loadCollections(puzzletest.Norvig)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	n := 3 * len(gs)
	if _, err := writeDistinctFrom(&buf, n, 1, gs); err != nil {
		t.Fatal(err)
	}
	classes := map[sudoku.Grid]bool{}
	for i, line := range strings.Fields(buf.String()) {
		g, err := sudoku.Parse(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if g.Clues() != gs[i%len(gs)].Clues()+1 {
			t.Errorf("line %d: %d clues, want %d", i+1, g.Clues(), gs[i%len(gs)].Clues()+1)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil || p.Solutions != 1 {
			t.Fatalf("line %d: %d solutions, %v; want one", i+1, p.Solutions, err)
		}
		classes[p.Canonical] = true
	}
	if len(classes) < n-n/50 {
		t.Errorf("%d classes among %d puzzles", len(classes), n)
	}
}
