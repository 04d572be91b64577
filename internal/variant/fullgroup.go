package variant

import (
	"slices"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The full classic group (docs/variants.md, "Symmetry groups"): a rule set
// whose rules all keep every line move (cages, odd/even cells, extra
// regions, in any mix) keeps every one of package sudoku's geometric moves,
// 2 x 1296 x 1296 = 3,359,232 of them. Too many to write out one by one,
// so its canonical form is searched, not listed:
//
//  1. Each cell gets a label every move carries along with it (its given,
//     parity mark, cage size and total, how many extra regions hold it),
//     ranked among the puzzle's labels so a row of nine reads as one
//     uint64. For each transposition and column order (2 x 1296) the least
//     row order is the rows sorted inside each band and the bands sorted:
//     the moves giving the least grid of labels are found in well under a
//     millisecond, whatever the givens.
//  2. Among those, the least grid of structure: each cell's cages and
//     extra regions numbered by first appearance in the moved grid (as
//     relabelled digits are), and its given relabelled when the rules
//     allow it. Labels and structure together determine the puzzle, so
//     every move left gives one written form: the canonical one.

// FullGroup reports whether p's rules keep every geometric move of the
// classic grid (every rule a cage, odd/even cells or an extra region):
// then p's group is package sudoku's, without digit relabelling unless
// Group says so, and Group lists only the rotations and reflections of it.
func FullGroup(p Puzzle) bool {
	if len(p.Rules) == 0 {
		return false
	}
	for _, r := range p.Rules {
		switch r.Type {
		case Killer, Odd, Even, ExtraRegion:
		default:
			return false
		}
	}
	return true
}

// cellLabels gives each cell a rank of what any move of the full group
// carries with it; ranks follow the labels' order, so they are the same
// for every writing of the puzzle.
func cellLabels(p Puzzle, digits bool) [81]uint8 {
	var lab [81]uint64
	for c, d := range p.Givens {
		if digits && d != 0 {
			d = 1
		}
		lab[c] = uint64(d)
	}
	for _, r := range p.Rules {
		for _, c := range r.Cells {
			switch r.Type {
			case Odd:
				lab[c] |= 1 << 4
			case Even:
				lab[c] |= 1 << 5
			case ExtraRegion:
				lab[c] += 1 << 40 // a count of the regions that hold c
			case Killer:
				total := uint64(0)
				if r.Total != nil {
					total = uint64(*r.Total) + 1
				}
				lab[c] |= 1<<6 | uint64(len(r.Cells))<<7 | total<<16
			}
		}
	}
	ranks := slices.Clone(lab[:])
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	var out [81]uint8
	for c := range 81 {
		i, _ := slices.BinarySearch(ranks, lab[c])
		out[c] = uint8(i)
	}
	return out
}

// leastLabelMoves returns every move of the full group (digits left as
// Identity's) that gives the least grid of labels, rows read as uint64s.
func leastLabelMoves(lab [81]uint8) []sudoku.Transform {
	var s [2][81]uint8 // the labels and their transpose
	for i := range 81 {
		s[0][i] = lab[i]
		s[1][i%9*9+i/9] = lab[i]
	}
	type tie struct {
		t    bool
		cols [9]uint8
		keys [9]uint64 // the rows' keys in the original row order
	}
	var best [9]uint64
	var ties []tie
	for t := range 2 {
		for _, cols := range bandPerms {
			var keys [9]uint64
			for r := range 9 {
				for _, c := range cols {
					keys[r] = keys[r]<<7 | uint64(s[t][r*9+int(c)])
				}
			}
			grid := leastRows(keys)
			switch c := slices.Compare(grid[:], best[:]); {
			case len(ties) == 0 || c < 0:
				best, ties = grid, append(ties[:0], tie{t == 1, cols, keys})
			case c == 0:
				ties = append(ties, tie{t == 1, cols, keys})
			}
		}
	}
	var out []sudoku.Transform
	for _, ti := range ties {
	rows:
		for _, rows := range bandPerms {
			for i, r := range rows {
				if ti.keys[r] != best[i] {
					continue rows
				}
			}
			out = append(out, sudoku.Transform{Transposed: ti.t, Rows: rows, Cols: ti.cols, Digits: sudoku.Identity.Digits})
		}
	}
	return out
}

// leastRows is the least grid of row keys a band-keeping row order gives:
// each band's rows sorted, then the bands sorted by their rows.
func leastRows(keys [9]uint64) [9]uint64 {
	var bands [3][3]uint64
	for b := range 3 {
		bands[b] = [3]uint64{keys[b*3], keys[b*3+1], keys[b*3+2]}
		slices.Sort(bands[b][:])
	}
	slices.SortFunc(bands[:], func(x, y [3]uint64) int { return slices.Compare(x[:], y[:]) })
	var out [9]uint64
	for b := range 3 {
		copy(out[b*3:], bands[b][:])
	}
	return out
}

// structure writes the moved grid's structure, cell by cell: the cages
// and extra regions holding the cell, each numbered by its first
// appearance (the least numbers first), then the cell's given relabelled
// in the order the givens first appear when digits is true.
func structure(p Puzzle, t sudoku.Transform, digits bool, buf []uint8) []uint8 {
	var at [81][]int // rules holding each moved cell
	for k, r := range p.Rules {
		if r.Type == Killer || r.Type == ExtraRegion {
			for _, c := range r.Cells {
				m := t.Cell(int(c))
				at[m] = append(at[m], k)
			}
		}
	}
	g := t.Apply(p.Givens)
	names := make([]uint8, len(p.Rules))
	var digit [10]uint8
	next, nextDigit := uint8(1), uint8(1)
	out := buf[:0]
	var fresh []int
	for m := range 81 {
		start := len(out)
		fresh = fresh[:0]
		for _, k := range at[m] {
			if names[k] == 0 {
				fresh = append(fresh, k)
			}
		}
		if len(fresh) > 1 {
			// Rules first met together are named in an order of their
			// own (a cage before a region, then their moved cells), not
			// in the order p lists them.
			slices.SortFunc(fresh, func(a, b int) int { return compareMoved(p.Rules[a], p.Rules[b], t) })
		}
		for _, k := range fresh {
			names[k] = next
			next++
		}
		for _, k := range at[m] {
			out = append(out, names[k])
		}
		slices.Sort(out[start:])
		if d := g[m]; digits && d != 0 {
			if digit[d] == 0 {
				digit[d] = nextDigit
				nextDigit++
			}
			out = append(out, 255-digit[d])
		}
		out = append(out, 0) // the end of the cell
	}
	return out
}

// canonicalFull is canonicalVariant for a rule set of the full group.
func canonicalFull(p Puzzle, digits bool) (Puzzle, sudoku.Transform) {
	moves := leastLabelMoves(cellLabels(p, digits))
	var best, cur []uint8
	var bt sudoku.Transform
	for i, t := range moves {
		cur = structure(p, t, digits, cur)
		if i == 0 || slices.Compare(cur, best) < 0 {
			best, cur, bt = cur, best, t
		}
	}
	if digits {
		bt.Digits = relabel(bt.Apply(p.Givens))
	}
	return Normal(Apply(bt, p)), bt
}

// compareMoved orders two rules by type (killer before extraregion), then
// by their cells moved by t and sorted.
func compareMoved(a, b Rule, t sudoku.Transform) int {
	if a.Type != b.Type {
		if a.Type == Killer {
			return -1
		}
		return 1
	}
	return slices.Compare(movedCells(a, t), movedCells(b, t))
}

func movedCells(r Rule, t sudoku.Transform) []int {
	out := make([]int, len(r.Cells))
	for i, c := range r.Cells {
		out[i] = t.Cell(int(c))
	}
	slices.Sort(out)
	return out
}
