package variant

import (
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Check reports whether the full grid g keeps the givens and every rule of
// p, rule by rule and written for clarity, not speed (tests cross-check the
// solver with it; a player's finished grid can be checked with it). The
// error names the first rule broken, or is Validate's for a puzzle that
// cannot stand.
func Check(p Puzzle, g sudoku.Grid) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return check(p, g)
}

// check is Check for a valid puzzle.
func check(p Puzzle, g sudoku.Grid) error {
	for c := range 81 {
		if g[c] < 1 || g[c] > 9 {
			return fmt.Errorf("%s is empty", Cell(c))
		}
		if p.Givens[c] != 0 && p.Givens[c] != g[c] {
			return fmt.Errorf("%s is not the given %d", Cell(c), p.Givens[c])
		}
	}
	for _, h := range gridHouses(p) {
		if !distinct(g, h) {
			return fmt.Errorf("a row, column or box repeats a digit at %s", h[0])
		}
	}
	for i, r := range p.Rules {
		if !checkRule(r, g) {
			return fmt.Errorf("rule %d (%s) is broken", i+1, r.Type)
		}
	}
	if !checkNegative(p, g) {
		return fmt.Errorf("a pair without a dot, X or V is what one would say")
	}
	return nil
}

func distinct(g sudoku.Grid, cells []Cell) bool {
	seen := map[uint8]bool{}
	for _, c := range cells {
		if seen[g[c]] {
			return false
		}
		seen[g[c]] = true
	}
	return true
}

func digitSum(g sudoku.Grid, cells []Cell) int {
	s := 0
	for _, c := range cells {
		s += int(g[c])
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// hasDot reports whether p marks the pair a, b with a rule of one of types.
func hasDot(p []Rule, a, b Cell, types ...Type) bool {
	for _, r := range p {
		for _, t := range types {
			if r.Type == t && len(r.Cells) == 2 && (r.Cells[0] == a && r.Cells[1] == b || r.Cells[0] == b && r.Cells[1] == a) {
				return true
			}
		}
	}
	return false
}

// checkRule checks one rule; the negative rules are checked by Check's
// caller through checkNegative.
func checkRule(r Rule, g sudoku.Grid) bool {
	d := func(c Cell) int { return int(g[c]) }
	switch r.Type {
	case DiagonalPlus, DiagonalMinus, Windoku, Disjoint, Asterisk, CentreDot, Girandola,
		AntiKnight, AntiKing, NonConsecutive:
		return checkGlobal(r, g)
	case Whispers, Renban, Palindrome:
		return checkLine(r, g)
	case Killer:
		return distinct(g, r.Cells) && (r.Total == nil || digitSum(g, r.Cells) == *r.Total)
	case ExtraRegion:
		return distinct(g, r.Cells)
	case LittleKiller:
		return digitSum(g, diagonalCells(r.Cells, r.Dir)) == *r.Total
	case Sandwich:
		return checkSandwich(r, g)
	case Thermo:
		for k := 1; k < len(r.Cells); k++ {
			if d(r.Cells[k]) <= d(r.Cells[k-1]) {
				return false
			}
		}
	case Arrow:
		circle := d(r.Cells[0])
		if r.Circle == 2 {
			circle = 10*circle + d(r.Cells[1])
		}
		return circle == digitSum(g, r.Cells[r.Circle:])
	case White:
		return abs(d(r.Cells[0])-d(r.Cells[1])) == 1
	case Black:
		a, b := d(r.Cells[0]), d(r.Cells[1])
		return a == 2*b || b == 2*a
	case X, V:
		want := 10
		if r.Type == V {
			want = 5
		}
		return d(r.Cells[0])+d(r.Cells[1]) == want
	case Odd, Even:
		for _, c := range r.Cells {
			if (d(c)%2 == 1) != (r.Type == Odd) {
				return false
			}
		}
	}
	return true
}

// checkGlobal checks a global rule that carries no cells.
func checkGlobal(r Rule, g sudoku.Grid) bool {
	switch r.Type {
	case AntiKnight, AntiKing:
		for c := range Cell(81) {
			for _, o := range moveCells(c, chessMoves[r.Type]) {
				if g[c] == g[o] {
					return false
				}
			}
		}
	case NonConsecutive:
		for _, pr := range orthogonalPairs {
			if abs(int(g[pr[0]])-int(g[pr[1]])) == 1 {
				return false
			}
		}
	default:
		for _, h := range shapeGroups(r.Type) {
			if !distinct(g, h) {
				return false
			}
		}
	}
	return true
}

// checkLine checks whispers, renban and palindromes.
func checkLine(r Rule, g sudoku.Grid) bool {
	d := func(c Cell) int { return int(g[c]) }
	switch r.Type {
	case Whispers:
		for k := 1; k < len(r.Cells); k++ {
			if abs(d(r.Cells[k])-d(r.Cells[k-1])) < 5 {
				return false
			}
		}
	case Renban:
		lo, hi := 10, 0
		for _, c := range r.Cells {
			lo, hi = min(lo, d(c)), max(hi, d(c))
		}
		return distinct(g, r.Cells) && hi-lo == len(r.Cells)-1
	default:
		for k := range r.Cells {
			if g[r.Cells[k]] != g[r.Cells[len(r.Cells)-1-k]] {
				return false
			}
		}
	}
	return true
}

func checkSandwich(r Rule, g sudoku.Grid) bool {
	cells, _ := sandwichCells(r.Line)
	i, j := -1, -1
	for k, c := range cells {
		switch g[c] {
		case 1:
			i = k
		case 9:
			j = k
		}
	}
	lo, hi := min(i, j), max(i, j)
	return digitSum(g, cells[lo+1:hi]) == *r.Total
}

// checkNegative checks the negative rules of p on g: pairs without a dot
// (or X, V) must not be what the dot would say.
func checkNegative(p Puzzle, g sudoku.Grid) bool {
	neg := map[Type]bool{}
	for _, r := range p.Rules {
		neg[r.Type] = true
	}
	for _, pr := range orthogonalPairs {
		a, b := int(g[pr[0]]), int(g[pr[1]])
		if neg[KropkiNegative] && !hasDot(p.Rules, pr[0], pr[1], White, Black) &&
			(abs(a-b) == 1 || a == 2*b || b == 2*a) {
			return false
		}
		if neg[XVNegative] && !hasDot(p.Rules, pr[0], pr[1], X, V) && (a+b == 10 || a+b == 5) {
			return false
		}
	}
	return true
}
