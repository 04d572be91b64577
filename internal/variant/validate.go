package variant

import (
	"fmt"
	"slices"
)

// RuleError is a puzzle that cannot stand: the rule (its place in the
// list, 1-based, and type) and the cell where it fails, when there is one.
type RuleError struct {
	Rule int  // 1-based place in Puzzle.Rules; 0 for the givens or the list
	Type Type // the rule's type ("" for the givens or the list)
	Cell int  // 0-80, or -1 when the problem has no one cell
	Msg  string
}

func (e *RuleError) Error() string {
	var where string
	switch {
	case e.Rule > 0:
		where = fmt.Sprintf("rule %d (%s)", e.Rule, e.Type)
	case e.Type != "":
		where = string(e.Type)
	default:
		where = "givens"
	}
	if e.Cell >= 0 {
		where += " at " + Cell(e.Cell).String()
	}
	return where + ": " + e.Msg
}

func ruleErr(i int, r Rule, cell int, format string, args ...any) *RuleError {
	return &RuleError{Rule: i + 1, Type: r.Type, Cell: cell, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks p: known rule types with the fields they need, cells in
// the grid, cages that do not overlap and totals they can reach, lines that
// neither repeat nor jump a cell, jigsaw regions of nine connected cells
// covering the grid, the limits (docs/variants.md), and givens that do not
// repeat a digit where a rule forbids it. It returns the first *RuleError.
func (p Puzzle) Validate() error {
	if len(p.Rules) > MaxRules {
		return &RuleError{Cell: -1, Msg: fmt.Sprintf("%d rules, over the limit of %d", len(p.Rules), MaxRules)}
	}
	for i, d := range p.Givens {
		if d > 9 {
			return &RuleError{Cell: i, Msg: fmt.Sprintf("%d is not a digit", d)}
		}
	}
	seen := map[Type]bool{}
	var cage [81]int // 1 + the killer rule holding the cell
	var parity [81]Type
	sandwiches := map[string]bool{}
	for i, r := range p.Rules {
		if r.Type.global() {
			if seen[r.Type] {
				return ruleErr(i, r, -1, "given twice")
			}
			seen[r.Type] = true
		}
		if err := validRule(i, r); err != nil {
			return err
		}
		switch r.Type {
		case Killer:
			for _, c := range r.Cells {
				if cage[c] != 0 {
					return ruleErr(i, r, int(c), "overlaps rule %d (killer)", cage[c])
				}
				cage[c] = i + 1
			}
		case Odd, Even:
			for _, c := range r.Cells {
				if parity[c] != "" && parity[c] != r.Type {
					return ruleErr(i, r, int(c), "the cell is both odd and even")
				}
				parity[c] = r.Type
			}
		case Sandwich:
			if sandwiches[r.Line] {
				return ruleErr(i, r, -1, "a second sandwich total on %s", r.Line)
			}
			sandwiches[r.Line] = true
		}
	}
	m, err := compile(p)
	if err != nil {
		return err
	}
	return m.givensConflict(p.Givens)
}

// validRule checks one rule on its own.
func validRule(i int, r Rule) error {
	for _, c := range r.Cells {
		if c > 80 {
			return ruleErr(i, r, -1, "cell %d is outside the grid", int(c))
		}
	}
	if !slices.Contains(Types, r.Type) {
		return &RuleError{Rule: i + 1, Type: Type(truncate(string(r.Type))), Cell: -1, Msg: "unknown rule type"}
	}
	if r.Type.global() {
		return validGlobal(i, r)
	}
	if err := validFields(i, r); err != nil {
		return err
	}
	switch r.Type {
	case Killer:
		return validCage(i, r)
	case LittleKiller:
		return validLittleKiller(i, r)
	case Sandwich:
		return validSandwich(i, r)
	case Thermo, Whispers, Renban, Palindrome:
		return validLine(i, r, r.Cells, 0)
	case Arrow:
		return validArrow(i, r)
	case White, Black, X, V:
		if len(r.Cells) != 2 || !adjacent(r.Cells[0], r.Cells[1]) {
			return ruleErr(i, r, cellAt(r.Cells, 0), "needs two cells that share a side")
		}
	case ExtraRegion:
		if c, ok := repeated(r.Cells); ok {
			return ruleErr(i, r, int(c), "the cell is listed twice")
		}
		if len(r.Cells) != 9 {
			return ruleErr(i, r, cellAt(r.Cells, 9), "an extra region holds 9 cells, not %d", len(r.Cells))
		}
	case Odd, Even:
		if len(r.Cells) == 0 || len(r.Cells) > 81 {
			return ruleErr(i, r, -1, "needs 1 to 81 cells")
		}
		if c, ok := repeated(r.Cells); ok {
			return ruleErr(i, r, int(c), "the cell is listed twice")
		}
	default:
		return &RuleError{Rule: i + 1, Type: r.Type, Cell: -1, Msg: "unknown rule type"}
	}
	return nil
}

// validGlobal checks a rule without cells.
func validGlobal(i int, r Rule) error {
	if len(r.Cells) > 0 || r.Total != nil || r.Circle != 0 || r.Dir != "" || r.Line != "" || (r.Regions != "") != (r.Type == Jigsaw) {
		return ruleErr(i, r, -1, "takes no cells, total, circle, dir or line")
	}
	if r.Type == Jigsaw {
		return validRegions(i, r)
	}
	return nil
}

// validFields checks that a rule with cells uses only its type's fields.
func validFields(i int, r Rule) error {
	if r.Regions != "" || (r.Circle != 0) != (r.Type == Arrow) || (r.Dir != "") != (r.Type == LittleKiller) || (r.Line != "") != (r.Type == Sandwich) {
		return ruleErr(i, r, -1, "has fields its type does not take")
	}
	if r.Total != nil && r.Type != Killer && r.Type != LittleKiller && r.Type != Sandwich {
		return ruleErr(i, r, -1, "takes no total")
	}
	return nil
}

func cellAt(cells []Cell, k int) int {
	if k < len(cells) {
		return int(cells[k])
	}
	return -1
}

// repeated returns a cell listed twice.
func repeated(cells []Cell) (Cell, bool) {
	var seen [81]bool
	for _, c := range cells {
		if seen[c] {
			return c, true
		}
		seen[c] = true
	}
	return 0, false
}

// sumRange is the least and greatest sum of n different digits.
func sumRange(n int) (lo, hi int) { return n * (n + 1) / 2, n * (19 - n) / 2 }

func validCage(i int, r Rule) error {
	n := len(r.Cells)
	if n == 0 || n > 9 {
		return ruleErr(i, r, cellAt(r.Cells, 9), "a cage holds 1 to 9 cells, not %d", n)
	}
	if c, ok := repeated(r.Cells); ok {
		return ruleErr(i, r, int(c), "the cell is listed twice")
	}
	if r.Total != nil {
		lo, hi := sumRange(n)
		if *r.Total < lo || *r.Total > hi {
			return ruleErr(i, r, int(r.Cells[0]), "total %d is impossible for %d cells (%d to %d)", *r.Total, n, lo, hi)
		}
	}
	return nil
}

func validLittleKiller(i int, r Rule) error {
	cells := diagonalCells(r.Cells, r.Dir)
	if cells == nil {
		return ruleErr(i, r, cellAt(r.Cells, 0), "needs one first cell and a dir of dr, dl, ur or ul")
	}
	dr, dc, _ := r.Dir.step()
	if pr, pc := r.Cells[0].row()-dr, r.Cells[0].col()-dc; pr >= 0 && pr < 9 && pc >= 0 && pc < 9 {
		return ruleErr(i, r, int(r.Cells[0]), "the first cell must be at the edge the clue points in from")
	}
	if r.Total == nil || *r.Total < len(cells) || *r.Total > 9*len(cells) {
		return ruleErr(i, r, int(r.Cells[0]), "needs a total from %d to %d for %d cells", len(cells), 9*len(cells), len(cells))
	}
	return nil
}

func validSandwich(i int, r Rule) error {
	if _, ok := sandwichCells(r.Line); !ok {
		return ruleErr(i, r, -1, "line %q is not r1-r9 or c1-c9", truncate(r.Line))
	}
	if len(r.Cells) > 0 {
		return ruleErr(i, r, -1, "takes a line, not cells")
	}
	if r.Total == nil || *r.Total < 0 || *r.Total > 35 {
		return ruleErr(i, r, -1, "needs a total from 0 to 35")
	}
	for k := range 8 {
		if len(sandwichCombos[k][*r.Total]) > 0 {
			return nil
		}
	}
	return ruleErr(i, r, -1, "total %d is impossible", *r.Total)
}

// validLine checks a line from cell from on: no repeated cell, each cell
// touching the one before (a side or a corner), and its length limit.
func validLine(i int, r Rule, cells []Cell, from int) error {
	n := len(cells) - from
	limit := MaxLine
	switch r.Type {
	case Thermo, Renban:
		limit = 9
	case Arrow:
		limit = maxArrowLine + 2
	}
	if n < 1 || (n < 2 && r.Type != Arrow) || n > limit {
		return ruleErr(i, r, cellAt(cells, limit), "a %s line holds %d to %d cells, not %d", r.Type, min(2, 1+boolInt(r.Type == Arrow)), limit, n)
	}
	if c, ok := repeated(cells); ok {
		return ruleErr(i, r, int(c), "the line repeats a cell")
	}
	for k := max(from, 1); k < len(cells); k++ {
		if !touching(cells[k-1], cells[k]) {
			return ruleErr(i, r, int(cells[k]), "the line jumps from %s", cells[k-1])
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxArrowLine bounds an arrow's line: 17 cells of 9 is 153, and with a
// pill's 99 the solver's sums stay under 256.
const maxArrowLine = 17

func validArrow(i int, r Rule) error {
	if r.Circle != 1 && r.Circle != 2 {
		return ruleErr(i, r, -1, "circle is 1 cell or 2 (a pill), not %d", r.Circle)
	}
	if len(r.Cells) <= r.Circle {
		return ruleErr(i, r, cellAt(r.Cells, 0), "needs its circle and at least one cell of line")
	}
	if r.Circle == 2 && !adjacent(r.Cells[0], r.Cells[1]) {
		return ruleErr(i, r, int(r.Cells[1]), "the pill's two cells must share a side")
	}
	line := r.Cells[r.Circle:]
	touches := slices.ContainsFunc(r.Cells[:r.Circle], func(c Cell) bool { return touching(c, line[0]) })
	if !touches {
		return ruleErr(i, r, int(line[0]), "the line does not start next to the circle")
	}
	if err := validLine(i, r, r.Cells, r.Circle); err != nil {
		return err
	}
	if r.Circle == 1 && len(line) > 9 {
		return ruleErr(i, r, int(line[9]), "%d cells sum to more than 9", len(line))
	}
	if len(line) > maxArrowLine {
		return ruleErr(i, r, int(line[maxArrowLine]), "an arrow's line holds at most %d cells", maxArrowLine)
	}
	return nil
}

// validRegions checks jigsaw regions: 81 digits 1-9, each region nine
// orthogonally connected cells.
func validRegions(i int, r Rule) error {
	s := r.Regions
	if len(s) != 81 {
		return ruleErr(i, r, -1, "regions are 81 digits 1-9, not %d characters", len(s))
	}
	var count [10]int
	for k := range 81 {
		if s[k] < '1' || s[k] > '9' {
			return ruleErr(i, r, k, "%q is not a region digit 1-9", s[k])
		}
		count[s[k]-'0']++
	}
	for d := 1; d <= 9; d++ {
		if count[d] != 9 {
			return ruleErr(i, r, indexByte(s, byte('0'+d)), "region %d has %d cells, not 9", d, count[d])
		}
		start := indexByte(s, byte('0'+d))
		if n := flood(s, start); n != 9 {
			return ruleErr(i, r, start, "region %d is not connected (%d of its cells reach this one)", d, n)
		}
	}
	return nil
}

func indexByte(s string, b byte) int {
	for k := range len(s) {
		if s[k] == b {
			return k
		}
	}
	return -1
}

// flood counts the cells of start's region reachable from it by sides.
func flood(s string, start int) int {
	var seen [81]bool
	stack := []int{start}
	seen[start] = true
	n := 0
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		for _, nb := range moveCells(Cell(c), [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}) {
			if !seen[nb] && s[nb] == s[start] {
				seen[nb] = true
				stack = append(stack, int(nb))
			}
		}
	}
	return n
}
