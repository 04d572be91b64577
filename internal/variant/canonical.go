package variant

import (
	"fmt"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// reversed is the line order that turns the grid over.
var reversed = [9]uint8{8, 7, 6, 5, 4, 3, 2, 1, 0}

// Geometry is the eight rotations and reflections of the grid (the
// dihedral group of the square) as package sudoku's transforms: every
// rule of the model maps onto a rule of the model under each of them (a
// diagonal onto a diagonal, a row's sandwich onto a row's or a column's,
// a pill onto a pill read in its cells' order). Geometry[0] is the
// identity.
var Geometry = func() []sudoku.Transform {
	var out []sudoku.Transform
	for _, tr := range []bool{false, true} {
		for _, rr := range []bool{false, true} {
			for _, rc := range []bool{false, true} {
				t := sudoku.Identity
				t.Transposed = tr
				if rr {
					t.Rows = reversed
				}
				if rc {
					t.Cols = reversed
				}
				out = append(out, t)
			}
		}
	}
	return out
}()

// relabels reports whether the rules of p hold whatever the digits are
// called, so that relabelling the digits writes the same puzzle: regions,
// anti-knight, anti-king, jigsaw, extra regions, palindromes and cages
// without a total.
// Sums, thermometers, dots, XV, odd/even, non-consecutive, whispers and
// renban name the digits themselves.
func relabels(p Puzzle) bool {
	for _, r := range p.Rules {
		switch r.Type {
		case DiagonalPlus, DiagonalMinus, Windoku, Disjoint, Asterisk, CentreDot, Girandola,
			AntiKnight, AntiKing, Jigsaw, Palindrome, ExtraRegion:
		case Killer:
			if r.Total != nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Apply returns p moved by t: the givens by t.Apply, each rule's cells by
// t.Cell. t must be a member of p's group (Group): other moves of the
// classic grid do not keep every rule a rule.
func Apply(t sudoku.Transform, p Puzzle) Puzzle {
	out := Puzzle{Givens: t.Apply(p.Givens), Rules: make([]Rule, 0, len(p.Rules))}
	for _, r := range p.Rules {
		out.Rules = append(out.Rules, applyRule(t, r))
	}
	return out
}

func applyRule(t sudoku.Transform, orig Rule) Rule {
	r := orig
	mv := func(c Cell) Cell { return Cell(t.Cell(int(c))) }
	r.Cells = slices.Clone(r.Cells)
	for k, c := range r.Cells {
		r.Cells[k] = mv(c)
	}
	switch r.Type {
	case DiagonalMinus, DiagonalPlus:
		// Where the diagonal's cells go says which it is now: the first
		// one off the centre, which both diagonals share.
		for _, c := range shapeGroups(r.Type)[0] {
			if m := mv(c); m != 40 {
				r.Type = DiagonalPlus
				if m.row() == m.col() {
					r.Type = DiagonalMinus
				}
				break
			}
		}
	case Jigsaw:
		if len(r.Regions) == 81 {
			b := make([]byte, 81)
			for i := range 81 {
				b[mv(Cell(i))] = r.Regions[i]
			}
			r.Regions = string(b)
		}
	case LittleKiller:
		if old := diagonalCells(orig.Cells, orig.Dir); len(old) >= 2 {
			a, b := mv(old[0]), mv(old[1])
			r.Dir = dirOf(b.row()-a.row(), b.col()-a.col())
		} else if len(old) == 1 {
			r.Dir = cornerDir(r.Cells[0])
		}
	case Sandwich:
		if cells, ok := sandwichCells(r.Line); ok {
			a, b := mv(cells[0]), mv(cells[1])
			if a.row() == b.row() {
				r.Line = fmt.Sprintf("r%d", a.row()+1)
			} else {
				r.Line = fmt.Sprintf("c%d", a.col()+1)
			}
		}
	}
	return r
}

// relabel renames the digits of g in the order they first appear, row by
// row: the least of g's relabellings. It returns the renaming.
func relabel(g sudoku.Grid) [10]uint8 {
	var names [10]uint8
	next := uint8(1)
	for _, d := range g {
		if d != 0 && names[d] == 0 {
			names[d] = next
			next++
		}
	}
	for d := 1; d <= 9; d++ {
		if names[d] == 0 {
			names[d] = next
			next++
		}
	}
	return names
}

// Canonical returns the canonical form of p, the same puzzle for every way
// of writing it under its symmetry group (Group), with t such that
// Normal(Apply(t, p)) is it; its Text is the puzzle's identity. A classic
// puzzle is sudoku.Canonical's (which solves it, so opt bounds it, and its
// errors are sudoku's); a variant is the least written form over its
// group, its digits relabelled when the rules allow (relabels).
func Canonical(p Puzzle, opt sudoku.Options) (Puzzle, sudoku.Transform, error) {
	if p.Classic() {
		g, t, err := sudoku.Canonical(p.Givens, opt)
		return Puzzle{Givens: g}, t, err
	}
	if err := p.Validate(); err != nil {
		return Puzzle{}, sudoku.Transform{}, err
	}
	c, t := canonicalVariant(p)
	return c, t, nil
}

// canonicalVariant is Canonical for a valid puzzle with rules: the least
// written form over its group. The written form begins with the givens,
// so only the moves that give the least givens are written out whole.
func canonicalVariant(p Puzzle) (Puzzle, sudoku.Transform) {
	group, digits := Group(p)
	if FullGroup(p) {
		return canonicalFull(p, digits)
	}
	var least sudoku.Grid
	var ties []sudoku.Transform
	for i, t := range group {
		if digits {
			t.Digits = relabel(t.Apply(p.Givens))
		}
		g := t.Apply(p.Givens)
		switch c := lessGrid(g, least); {
		case i == 0 || c < 0:
			least, ties = g, append(ties[:0], t)
		case c == 0:
			ties = append(ties, t)
		}
	}
	if len(ties) > maxWritten {
		ties = leastSignatures(p, ties)
	}
	var best Puzzle
	var bestText string
	var bestT sudoku.Transform
	for i, t := range ties {
		q := Normal(Apply(t, p))
		if s := q.Text(); i == 0 || s < bestText {
			best, bestText, bestT = q, s, t
		}
	}
	return best, bestT
}

// maxWritten bounds the moves written out whole: past it (a large group
// and few givens, a killer without givens beside a diagonal) the moves
// with the least givens are narrowed first to those with the least
// signatures (leastSignatures). The number of such moves is the same for
// every writing of a puzzle, so the choice is too.
const maxWritten = 16

// leastSignatures keeps the moves that give the least grid of cell
// signatures: each cell's rules summed into one number (cellSignatures),
// moved with the cell.
func leastSignatures(p Puzzle, moves []sudoku.Transform) []sudoku.Transform {
	sig := cellSignatures(Normal(p))
	var least, cur [81]uint64
	var out []sudoku.Transform
	for i, t := range moves {
		for c := range 81 {
			cur[t.Cell(c)] = sig[c]
		}
		switch c := slices.Compare(cur[:], least[:]); {
		case i == 0 || c < 0:
			least, out = cur, append(out[:0], t)
		case c == 0:
			out = append(out, t)
		}
	}
	return out
}

// cellSignatures sums into each cell a hash of every rule on it (its type,
// total, size, and place along a line whose direction counts), in any
// order of the rules: what a move carries along with the cell.
func cellSignatures(p Puzzle) [81]uint64 {
	var sig [81]uint64
	for _, r := range p.Rules {
		cells := r.Cells
		switch r.Type {
		case LittleKiller:
			cells = diagonalCells(r.Cells, r.Dir)
		case Sandwich:
			lc, _ := sandwichCells(r.Line)
			cells = lc[:]
		}
		total := -1
		if r.Total != nil {
			total = *r.Total
		}
		for k, c := range cells {
			pos := 0
			switch r.Type {
			case Thermo, Arrow:
				pos = k + 1
			case Whispers, Renban, Palindrome:
				pos = min(k, len(cells)-1-k) + 1
			}
			h := fnv(fnv(fnv(fnv(14695981039346656037, string(r.Type)), fmt.Sprint(total)), fmt.Sprint(len(cells))), fmt.Sprint(pos, r.Circle))
			sig[c] += h
		}
	}
	return sig
}

// fnv folds s into the FNV-1a hash h.
func fnv(h uint64, s string) uint64 {
	for i := range len(s) {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// lessGrid compares two grids as their written forms do ('.' before the
// digits): -1, 0 or 1.
func lessGrid(a, b sudoku.Grid) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Group describes the symmetry group of p's rules (docs/variants.md): the
// moves of the grid, each line move every rule keeps (lineRuleOf)
// followed by each of Geometry, Identity first, and whether the digits may
// be relabelled.
// A classic puzzle's group is package sudoku's and is not listed here;
// nor is the full group of a rule set of cages, odd/even cells and extra
// regions (FullGroup), for which Group lists Geometry, a subgroup.
func Group(p Puzzle) (moves []sudoku.Transform, digits bool) {
	return keyOf(p).moves(), relabels(p)
}
