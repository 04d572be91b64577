package sudoku

import "math/bits"

// GeneratorVersion names the sequence of puzzles a Generator draws from a
// seed. Bump it whenever a change to this file (the random stream, the fill,
// the removal order, the neighbour move) changes what a seed gives: a seed
// reproduces a puzzle only under the same version.
const GeneratorVersion = "1"

// rng is splitmix64: tiny, fast, and written here rather than taken from
// math/rand/v2, whose methods (IntN, Shuffle) may change their output from
// one Go release to the next. A seed must give the same puzzles forever.
type rng struct{ x uint64 }

func (r *rng) next() uint64 {
	r.x += 0x9e3779b97f4a7c15
	z := r.x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n) (Lemire's multiply-shift; the bias for
// n <= 81 is below 2^-57, far too small to matter here).
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// shuffle permutes p (Fisher-Yates).
func shuffle[T any](r *rng, p []T) {
	for i := len(p) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}

// Generator draws random puzzles from a seed: random complete grids, and
// from them minimal puzzles with a unique solution. The same seed (and
// GeneratorVersion) gives the same sequence of grids and puzzles. A
// Generator is not safe for concurrent use; use one per goroutine.
type Generator struct {
	// Symmetric keeps the givens in 180° rotational symmetry: cell i and
	// cell 80-i are removed and added together.
	Symmetric bool
	// Options bound the uniqueness searches (MaxNodes; Done to abandon).
	Options Options
	rng     rng
}

// NewGenerator returns a Generator whose draws are fixed by seed.
func NewGenerator(seed uint64, symmetric bool) *Generator {
	return &Generator{Symmetric: symmetric, rng: rng{x: seed}}
}

// Solution returns a random complete grid: a depth-first fill that takes
// the cell with the fewest candidates (a random one among equals) and tries
// its digits in a random order. Every valid grid can come out.
func (gen *Generator) Solution() Grid {
	var f filler
	f.rng = &gen.rng
	f.fill()
	return f.g
}

// filler is the state of Solution's fill.
type filler struct {
	g                 Grid
	rows, cols, boxes [9]uint16 // digits used, bit d-1 for digit d
	rng               *rng
}

func (f *filler) fill() bool {
	best, bestN := -1, 10
	var bestMask uint16
	ties := 0
	for c := range 81 {
		if f.g[c] != 0 {
			continue
		}
		m := ^(f.rows[c/9] | f.cols[c%9] | f.boxes[boxOf(c)]) & 0x1ff
		n := bits.OnesCount16(m)
		switch {
		case n == 0:
			return false
		case n < bestN:
			best, bestN, bestMask, ties = c, n, m, 1
		case n == bestN:
			// Reservoir sampling: every tied cell is as likely to be taken.
			ties++
			if f.rng.intn(ties) == 0 {
				best, bestMask = c, m
			}
		}
	}
	if best < 0 {
		return true // full
	}
	var ds [9]uint8
	k := 0
	for m := bestMask; m != 0; m &= m - 1 {
		ds[k] = uint8(bits.TrailingZeros16(m) + 1)
		k++
	}
	shuffle(f.rng, ds[:k])
	r, c, b := best/9, best%9, boxOf(best)
	for _, d := range ds[:k] {
		bit := uint16(1) << (d - 1)
		f.g[best] = d
		f.rows[r] |= bit
		f.cols[c] |= bit
		f.boxes[b] |= bit
		if f.fill() {
			return true
		}
		f.rows[r] &^= bit
		f.cols[c] &^= bit
		f.boxes[b] &^= bit
	}
	f.g[best] = 0
	return false
}

func boxOf(c int) int { return c/27*3 + c%9/3 }

// Reduce removes givens of p, a puzzle with a unique solution, in a random
// order (both of a symmetric pair at once when Symmetric is set), each one
// only if the solution stays unique. One pass is enough for minimality:
// a given that could not go when it was tried cannot go later either, since
// removing others only adds solutions. So without Symmetric the result is
// minimal, and ok is true. With Symmetric it is minimal among pairs, and ok
// reports whether it is minimal too (no single given can go); the caller
// should discard it otherwise, since removing one given of a pair breaks
// the symmetry.
func (gen *Generator) Reduce(p Grid) (Grid, bool) {
	order := gen.cells(p)
	for _, c := range order {
		if p[c] == 0 {
			continue
		}
		q := p
		q[c] = 0
		if gen.Symmetric {
			q[80-c] = 0
		}
		if gen.unique(q) {
			p = q
		}
	}
	if !gen.Symmetric {
		return p, true
	}
	return p, gen.minimal(p)
}

// Neighbour is the hill climber's move: it adds back one or two digits of
// sol (with their symmetric partners) to p, a minimal puzzle with solution
// sol, and reduces the result again, so the new puzzle shares most of p's
// givens. ok is as for Reduce.
func (gen *Generator) Neighbour(p, sol Grid) (Grid, bool) {
	var empty []int
	for c, v := range p {
		if v == 0 && (!gen.Symmetric || c <= 40) {
			empty = append(empty, c)
		}
	}
	if len(empty) == 0 {
		return p, gen.minimal(p)
	}
	for range 1 + gen.rng.intn(2) {
		c := empty[gen.rng.intn(len(empty))]
		p[c] = sol[c]
		if gen.Symmetric {
			p[80-c] = sol[80-c]
		}
	}
	return gen.Reduce(p)
}

// cells returns the cells of p to try removing, in a random order: every
// cell, or with Symmetric one cell of each pair (the one <= 40).
func (gen *Generator) cells(p Grid) []int {
	n := 81
	if gen.Symmetric {
		n = 41
	}
	order := make([]int, 0, n)
	for c := range n {
		if p[c] != 0 {
			order = append(order, c)
		}
	}
	shuffle(&gen.rng, order)
	return order
}

// unique reports whether p has exactly one solution. A search past its
// budget counts as not unique, so the given under test stays.
func (gen *Generator) unique(p Grid) bool {
	r, err := Solve(p, gen.Options)
	return err == nil && r.Solutions == 1
}

// minimal reports whether no single given of p can be removed with the
// solution staying unique.
func (gen *Generator) minimal(p Grid) bool {
	for c, v := range p {
		if v == 0 {
			continue
		}
		q := p
		q[c] = 0
		if gen.unique(q) {
			return false
		}
	}
	return true
}

// Minimal reports whether p has exactly one solution and no given can be
// removed without losing that: the generator's promise for every puzzle.
func Minimal(p Grid, opt Options) bool {
	gen := Generator{Options: opt}
	return gen.unique(p) && gen.minimal(p)
}
