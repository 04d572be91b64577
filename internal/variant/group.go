package variant

import (
	"sync"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The line moves of a rule set's symmetry group (docs/variants.md,
// "Symmetry groups"): band-keeping permutations R of the rows and C of
// the columns (package sudoku's Transform.Rows and Cols) that map every
// rule onto a rule of the same meaning. Each rule type says which R and C
// it keeps (a lineForm for each) and whether it ties C to R; a rule set
// keeps what all its rules keep, and its group is Geometry followed by
// those moves.

// lineForm names a set of band-keeping permutations of nine lines.
type lineForm uint8

const (
	formAny      lineForm = iota // every one: cages, odd/even, extra regions
	formFixed                    // the identity alone (Geometry does the rest)
	formDisjoint                 // the same permutation inside every band (disjoint groups)
	formCentre                   // each band's middle line kept (centre dot)
	formWindoku                  // lines 2-3 and 7-8 kept or swapped, the others fixed (windoku)
	formCount
)

// keeps reports whether the permutation p (p[i]: the old line that
// becomes line i) is of form f.
func (f lineForm) keeps(p [9]uint8) bool {
	switch f {
	case formAny:
		return true
	case formFixed:
		return p == sudoku.Identity.Rows
	case formDisjoint:
		for i := range 9 {
			if p[i]%3 != p[i%3]%3 {
				return false
			}
		}
		return true
	case formCentre:
		for i := range 9 {
			if (i%3 == 1) != (p[i]%3 == 1) {
				return false
			}
		}
		return true
	case formWindoku:
		for i, v := range p {
			switch i {
			case 1, 2:
				if v != 1 && v != 2 {
					return false
				}
			case 6, 7:
				if v != 6 && v != 7 {
					return false
				}
			default:
				if int(v) != i {
					return false
				}
			}
		}
		return true
	}
	return false
}

// Ties of the columns' permutation C to the rows' R.
const (
	tieSame   = 1 << iota // C = R: diagonal- (r1c1 to r9c9) stays on itself
	tieMirror             // C(i) = 8 - R(8-i): diagonal+ (r9c1 to r1c9) stays on itself
)

// lineRule is what one rule keeps: forms of R and C, and ties.
type lineRule struct {
	rows, cols lineForm
	ties       uint8
}

// lineRuleOf says which line moves r keeps. Lines, dots, cages drawn as
// shapes and every rule between neighbours need the identity: a row swap
// tears them apart. A sandwich keeps its row under any row move but needs
// its cells' order, so the columns stay (a column sandwich the reverse).
func lineRuleOf(r Rule) lineRule {
	switch r.Type {
	case Killer, Odd, Even, ExtraRegion:
		return lineRule{formAny, formAny, 0}
	case Disjoint:
		return lineRule{formDisjoint, formDisjoint, 0}
	case CentreDot:
		return lineRule{formCentre, formCentre, 0}
	case Windoku:
		return lineRule{formWindoku, formWindoku, 0}
	case DiagonalMinus:
		return lineRule{formAny, formAny, tieSame}
	case DiagonalPlus:
		return lineRule{formAny, formAny, tieMirror}
	case Sandwich:
		if len(r.Line) > 0 && r.Line[0] == 'r' {
			return lineRule{formAny, formFixed, 0}
		}
		return lineRule{formFixed, formAny, 0}
	}
	return lineRule{formFixed, formFixed, 0}
}

// maxLineMoves bounds the line moves Group lists: a rule set that keeps
// more (cages, odd/even cells and extra regions keep every one of package
// sudoku's 1296 x 1296) is listed with Geometry alone, and its canonical
// form is searched over the full group instead (FullGroup, fullgroup.go).
const maxLineMoves = 2592

// perms3 is every order of three lines (or bands), the identity first.
var perms3 = [6][3]uint8{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// bandPerms is every band-keeping permutation of nine lines (1296), the
// identity first.
var bandPerms = func() [][9]uint8 {
	var out [][9]uint8
	for _, b := range perms3 {
		for _, w0 := range perms3 {
			for _, w1 := range perms3 {
				for _, w2 := range perms3 {
					var p [9]uint8
					for k, w := range [3][3]uint8{w0, w1, w2} {
						for j := range 3 {
							p[k*3+j] = b[k]*3 + w[j]
						}
					}
					out = append(out, p)
				}
			}
		}
	}
	return out
}()

// mirror returns the permutation 8 - p(8-i): p seen from the other end.
func mirror(p [9]uint8) [9]uint8 {
	var q [9]uint8
	for i := range 9 {
		q[i] = 8 - p[8-i]
	}
	return q
}

// groupKey is what decides a rule set's group: the forms its rules ask
// of the rows and of the columns (bit f for form f) and the ties.
type groupKey struct {
	rows, cols uint8
	ties       uint8
}

func keyOf(p Puzzle) groupKey {
	var k groupKey
	for _, r := range p.Rules {
		lr := lineRuleOf(r)
		k.rows |= 1 << lr.rows
		k.cols |= 1 << lr.cols
		k.ties |= lr.ties
	}
	return k
}

// groups caches each groupKey's moves: a few kinds of rule set recur.
var groups sync.Map // groupKey -> []sudoku.Transform

// moves returns the group of a key: each line move followed by each of
// Geometry (the line moves keep the rules where they are, then Geometry
// moves them to rules), each move once, Identity first.
func (k groupKey) moves() []sudoku.Transform {
	if g, ok := groups.Load(k); ok {
		return g.([]sudoku.Transform)
	}
	lines := k.lineMoves()
	seen := map[sudoku.Transform]bool{}
	var out []sudoku.Transform
	for _, g := range Geometry {
		for _, l := range lines {
			t := l.Then(g)
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	groups.Store(k, out)
	return out
}

// lineMoves lists the (R, C) moves the key keeps, the identity first;
// the identity alone past maxLineMoves.
func (k groupKey) lineMoves() []sudoku.Transform {
	var rows, cols [][9]uint8
	for _, p := range bandPerms {
		if k.all(k.rows, p) {
			rows = append(rows, p)
		}
		if k.all(k.cols, p) {
			cols = append(cols, p)
		}
	}
	var out []sudoku.Transform
	add := func(r, c [9]uint8) {
		t := sudoku.Identity
		t.Rows, t.Cols = r, c
		out = append(out, t)
	}
	inCols := map[[9]uint8]bool{}
	for _, c := range cols {
		inCols[c] = true
	}
	switch {
	case k.ties == tieSame|tieMirror:
		for _, r := range rows {
			if inCols[r] && mirror(r) == r {
				add(r, r)
			}
		}
	case k.ties == tieSame:
		for _, r := range rows {
			if inCols[r] {
				add(r, r)
			}
		}
	case k.ties == tieMirror:
		for _, r := range rows {
			if inCols[mirror(r)] {
				add(r, mirror(r))
			}
		}
	default:
		if len(rows)*len(cols) > maxLineMoves {
			return []sudoku.Transform{sudoku.Identity}
		}
		for _, r := range rows {
			for _, c := range cols {
				add(r, c)
			}
		}
	}
	if len(out) > maxLineMoves {
		return []sudoku.Transform{sudoku.Identity}
	}
	return out
}

// all reports whether p is of every form in the set forms (bit f for f).
func (groupKey) all(forms uint8, p [9]uint8) bool {
	for f := range formCount {
		if forms&(1<<f) != 0 && !f.keeps(p) {
			return false
		}
	}
	return true
}
