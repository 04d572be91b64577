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
//
// Lines of empty cells trade places without changing the puzzle, so only
// the moves that keep them in order are compared (inOrder).

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
// for every writing of the puzzle. empty marks the cells with no given
// and no rule.
func cellLabels(p Puzzle, digits bool) (ranks [81]uint8, empty [81]bool) {
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
	values := slices.Clone(lab[:])
	slices.Sort(values)
	values = slices.Compact(values)
	for c := range 81 {
		i, _ := slices.BinarySearch(values, lab[c])
		ranks[c], empty[c] = uint8(i), lab[c] == 0
	}
	return ranks, empty
}

// leastLabelMoves returns every move of the full group (digits left as
// Identity's) that gives the least grid of labels, rows read as uint64s.
//
// Lines of empty cells (no given, no rule) trade places without changing
// the puzzle, so only the moves that keep them in their order are
// listed (inOrder): every other move writes the puzzle as one of those
// does, and a few cages on an empty grid tie 2 moves instead of 10,368.
func leastLabelMoves(lab [81]uint8, emptyCell [81]bool) []sudoku.Transform {
	var s [2][81]uint8   // the labels and their transpose
	var empty [2][9]bool // the empty rows of each; its columns are the other's rows
	for t := range 2 {
		for i := range 9 {
			empty[t][i] = true
		}
	}
	for i := range 81 {
		s[0][i] = lab[i]
		s[1][i%9*9+i/9] = lab[i]
		if !emptyCell[i] {
			empty[0][i/9], empty[1][i%9] = false, false
		}
	}
	type tie struct {
		t    bool
		cols [9]uint8
		keys [9]uint64 // the rows' keys in the original row order
	}
	var best [9]uint64
	var ties []tie
	for t := range 2 {
		// sub[r][k][w]: row r's three labels in stack k, in the order w
		// of perms3, as 21 bits; a column order is a stack order and an
		// order inside each stack, in bandPerms' order.
		sub := subKeys(&s[t])
		i := 0
		for _, b := range perms3 {
			for w0 := range 6 {
				for w1 := range 6 {
					for w2 := range 6 {
						if !inOrder(bandPerms[i], empty[1-t]) {
							i++
							continue
						}
						var keys [9]uint64
						for r := range 9 {
							keys[r] = sub[r][b[0]][w0]<<42 | sub[r][b[1]][w1]<<21 | sub[r][b[2]][w2]
						}
						grid := leastRows(keys)
						switch c := slices.Compare(grid[:], best[:]); {
						case len(ties) == 0 || c < 0:
							best, ties = grid, append(ties[:0], tie{t == 1, bandPerms[i], keys})
						case c == 0:
							ties = append(ties, tie{t == 1, bandPerms[i], keys})
						}
						i++
					}
				}
			}
		}
	}
	var out []sudoku.Transform
	for _, ti := range ties {
		t := 0
		if ti.t {
			t = 1
		}
	rows:
		for _, rows := range bandPerms {
			if !inOrder(rows, empty[t]) {
				continue
			}
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

// subKeys gives each row's three labels in each stack in each order of
// perms3, as 21 bits.
func subKeys(s *[81]uint8) *[9][3][6]uint64 {
	var sub [9][3][6]uint64
	for r := range 9 {
		for k := range 3 {
			for w, o := range perms3 {
				for _, j := range o {
					sub[r][k][w] = sub[r][k][w]<<7 | uint64(s[r*9+k*3+int(j)])
				}
			}
		}
	}
	return &sub
}

// inOrder reports whether the band-keeping permutation p keeps the empty
// lines in their order: inside each band, and the bands all of whose
// lines are empty among themselves.
func inOrder(p [9]uint8, empty [9]bool) bool {
	var last [3]int
	lastBand := -1
	for i, v := range p {
		if i%3 == 0 {
			last[i/3] = -1
			if b := int(v) / 3; empty[b*3] && empty[b*3+1] && empty[b*3+2] {
				if b < lastBand {
					return false
				}
				lastBand = b
			}
		}
		if empty[v] {
			if int(v) < last[i/3] {
				return false
			}
			last[i/3] = int(v)
		}
	}
	return true
}

// leastRows is the least grid of row keys a band-keeping row order gives:
// each band's rows sorted, then the bands sorted by their rows.
func leastRows(keys [9]uint64) [9]uint64 {
	var bands [3][3]uint64
	for b := range 3 {
		bands[b] = sort3(keys[b*3], keys[b*3+1], keys[b*3+2])
	}
	// Three bands sorted by hand: slices.SortFunc costs more than the
	// rest of the search.
	if lessBand(bands[1], bands[0]) {
		bands[0], bands[1] = bands[1], bands[0]
	}
	if lessBand(bands[2], bands[1]) {
		bands[1], bands[2] = bands[2], bands[1]
		if lessBand(bands[1], bands[0]) {
			bands[0], bands[1] = bands[1], bands[0]
		}
	}
	return [9]uint64{bands[0][0], bands[0][1], bands[0][2], bands[1][0], bands[1][1], bands[1][2], bands[2][0], bands[2][1], bands[2][2]}
}

func sort3(a, b, c uint64) [3]uint64 {
	if b < a {
		a, b = b, a
	}
	if c < b {
		b, c = c, b
		if b < a {
			a, b = b, a
		}
	}
	return [3]uint64{a, b, c}
}

func lessBand(x, y [3]uint64) bool {
	if x[0] != y[0] {
		return x[0] < y[0]
	}
	if x[1] != y[1] {
		return x[1] < y[1]
	}
	return x[2] < y[2]
}

// structure writes the moved grid's structure, cell by cell: the cages
// and extra regions holding the cell, each numbered by its first
// appearance (the least numbers first), then the cell's given relabelled
// in the order the givens first appear when digits is true. It gives up,
// returning false, as soon as the structure is greater than best (unless
// best is nil): most moves that tie on the labels are left in a few cells.
func (fs *fullSearch) structure(t sudoku.Transform, best []uint16) ([]uint16, bool) {
	var from [81]int // the cell each moved cell comes from
	for i := range 9 {
		for j := range 9 {
			a, b := int(t.Rows[i]), int(t.Cols[j])
			if t.Transposed {
				a, b = b, a
			}
			from[i*9+j] = a*9 + b
		}
	}
	clear(fs.names)
	var digit [10]uint16
	next, nextDigit := uint16(1), uint16(1)
	out := fs.buf[:0]
	less := best == nil
	for m := range 81 {
		start := len(out)
		fs.fresh = fs.fresh[:0]
		hs := fs.holds[from[m]]
		for _, k := range hs {
			if fs.names[k] == 0 {
				fs.fresh = append(fs.fresh, k)
			}
		}
		if len(fs.fresh) > 1 {
			// Rules first met together are named in an order of their
			// own (a cage before a region, then their moved cells), not
			// in the order p lists them.
			slices.SortFunc(fs.fresh, func(a, b int) int { return compareMoved(fs.p.Rules[a], fs.p.Rules[b], t) })
		}
		for _, k := range fs.fresh {
			fs.names[k] = next
			next++
		}
		for _, k := range hs {
			// A region's name apart from a cage's: the structure says
			// which is which even where both cover one cell.
			name := fs.names[k]
			if fs.p.Rules[k].Type == ExtraRegion {
				name |= 0x4000
			}
			out = append(out, name)
		}
		if len(hs) > 1 {
			slices.Sort(out[start:])
		}
		if d := fs.p.Givens[from[m]]; fs.digits && d != 0 {
			if digit[d] == 0 {
				digit[d] = nextDigit
				nextDigit++
			}
			out = append(out, 0xffff-digit[d])
		}
		out = append(out, 0) // the end of the cell
		if !less {
			// Cells end in 0 and hold no 0 before it, so equal
			// prefixes end their cells together.
			switch c := slices.Compare(out[start:], best[start:min(len(out), len(best))]); {
			case c < 0:
				less = true
			case c > 0:
				fs.buf = out
				return nil, false
			}
		}
	}
	fs.buf = out
	return out, true
}

// fullSearch holds a puzzle of the full group and the buffers of its
// structure search.
type fullSearch struct {
	p      Puzzle
	digits bool
	holds  [81][]int // the cages and regions holding each cell
	names  []uint16
	fresh  []int
	buf    []uint16
}

// canonicalFull is canonicalVariant for a rule set of the full group.
func canonicalFull(p Puzzle, digits bool) (Puzzle, sudoku.Transform) {
	moves := leastLabelMoves(cellLabels(p, digits))
	fs := &fullSearch{p: p, digits: digits, names: make([]uint16, len(p.Rules))}
	for k, r := range p.Rules {
		if r.Type == Killer || r.Type == ExtraRegion {
			for _, c := range r.Cells {
				fs.holds[c] = append(fs.holds[c], k)
			}
		}
	}
	var best []uint16
	bt := moves[0]
	for _, t := range moves {
		// A structure equal to best is no use: best's move stays.
		if cur, ok := fs.structure(t, best); ok && (best == nil || slices.Compare(cur, best) < 0) {
			best, bt = slices.Clone(cur), t
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
