package bulk

import (
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// rated is a puzzle as sudoku.Rate returns it, in the third of the memory
// of a record.Puzzle (152 bytes against 432): an import holds two whole
// batches of them, up to MaxBatchSize each, one being written while the
// next is rated. The grids are packed two cells to a byte and the givens
// are a bitmap over the solution; Clues and Unique follow from the rest
// (Band is "": it follows the grade). A puzzle this cannot hold exactly (one with an ID, a grade, a
// submission time…, never one of Rate's) is kept whole in full.
type rated struct {
	solution                            [41]byte
	canonical                           [41]byte
	givens                              [sudoku.KeyMaskLen]byte // bit i%8 of byte i/8: cell i is given
	solutions                           uint8
	backtracks, guesses, nodes, solveNS int64
	engineVersion                       string
	full                                *record.Puzzle
}

// compact returns p as a rated.
func compact(p *record.Puzzle) rated {
	r := rated{solutions: uint8(p.Solutions), backtracks: p.Backtracks, guesses: p.Guesses,
		nodes: p.Nodes, solveNS: p.SolveNS, engineVersion: p.EngineVersion}
	for i, d := range p.Solution {
		r.solution[i/2] |= d << (4 * (i % 2))
		r.canonical[i/2] |= p.Canonical[i] << (4 * (i % 2))
		if p.Givens[i] != 0 {
			r.givens[i/8] |= 1 << (i % 8)
		}
	}
	if r.puzzle() != *p {
		// Out of a byte's half, a given the solution lacks, a
		// measure set by hand, a field Rate leaves alone.
		full := *p
		return rated{full: &full}
	}
	return r
}

// puzzle is the record.Puzzle that r holds.
func (r *rated) puzzle() record.Puzzle {
	if r.full != nil {
		return *r.full
	}
	p := record.Puzzle{Solutions: int(r.solutions), Backtracks: r.backtracks, Guesses: r.guesses,
		Nodes: r.nodes, SolveNS: r.solveNS, EngineVersion: r.engineVersion}
	for i := range p.Solution {
		d := r.solution[i/2] >> (4 * (i % 2)) & 0xf
		p.Solution[i] = d
		p.Canonical[i] = r.canonical[i/2] >> (4 * (i % 2)) & 0xf
		if r.givens[i/8]&(1<<(i%8)) != 0 {
			p.Givens[i] = d
		}
	}
	p.Clues = p.Givens.Clues()
	p.Unique = p.Solutions == 1
	p.SetGradeStatus() // pending, so no band: Rate does not grade
	return p
}

// puzzles appends the puzzles of rs to ps.
func puzzles(ps []record.Puzzle, rs []rated) []record.Puzzle {
	for i := range rs {
		ps = append(ps, rs[i].puzzle())
	}
	return ps
}
