package variant

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Type names a rule. The names are those of the written form (docs/variants.md).
type Type string

// The rule types. The first group are the global rules (no cells); the
// others carry cells.
const (
	DiagonalPlus   Type = "diagonal+"      // r9c1 to r1c9 holds 1-9 once each
	DiagonalMinus  Type = "diagonal-"      // r1c1 to r9c9 holds 1-9 once each
	Windoku        Type = "windoku"        // the four windows (and the five groups they imply)
	Disjoint       Type = "disjoint"       // the same position in every box
	Asterisk       Type = "asterisk"       // Sukaku Explainer's asterisk
	CentreDot      Type = "centredot"      // the centre cells of the boxes
	Girandola      Type = "girandola"      // Sukaku Explainer's girandola
	AntiKnight     Type = "antiknight"     // a knight's move apart: different digits
	AntiKing       Type = "antiking"       // a king's move apart: different digits
	NonConsecutive Type = "nonconsecutive" // orthogonal neighbours never differ by 1
	KropkiNegative Type = "kropkinegative" // all kropki dots are given
	XVNegative     Type = "xvnegative"     // all X and V are given
	Jigsaw         Type = "jigsaw"         // Regions replace the boxes

	Killer       Type = "killer"       // Cells, optional Total; no repeats
	LittleKiller Type = "littlekiller" // Cells[0] the first cell, Dir; Total
	Sandwich     Type = "sandwich"     // Line; Total between the 1 and the 9
	Thermo       Type = "thermo"       // Cells from the bulb: strictly increasing
	Arrow        Type = "arrow"        // Circle cells first, then the line
	White        Type = "white"        // two adjacent cells: consecutive
	Black        Type = "black"        // two adjacent cells: one double the other
	X            Type = "x"            // two adjacent cells: sum 10
	V            Type = "v"            // two adjacent cells: sum 5
	Odd          Type = "odd"          // Cells hold odd digits
	Even         Type = "even"         // Cells hold even digits
	Whispers     Type = "whispers"     // neighbours on the line differ by at least 5
	Renban       Type = "renban"       // a set of consecutive digits in any order
	Palindrome   Type = "palindrome"   // the line reads the same both ways
	ExtraRegion  Type = "extraregion"  // nine Cells of any shape hold 1-9 once each
)

// global reports whether t is a rule without cells, at most once a puzzle.
func (t Type) global() bool {
	switch t {
	case DiagonalPlus, DiagonalMinus, Windoku, Disjoint, Asterisk, CentreDot, Girandola,
		AntiKnight, AntiKing, NonConsecutive, KropkiNegative, XVNegative, Jigsaw:
		return true
	}
	return false
}

// Types lists every rule type, in the order of docs/variants.md.
var Types = []Type{
	DiagonalPlus, DiagonalMinus, Windoku, Disjoint, Asterisk, CentreDot, Girandola,
	AntiKnight, AntiKing, NonConsecutive, KropkiNegative, XVNegative, Jigsaw,
	Killer, LittleKiller, Sandwich, Thermo, Arrow, White, Black, X, V, Odd, Even,
	Whispers, Renban, Palindrome, ExtraRegion,
}

// Rule is one rule of a puzzle: its Type says which fields it uses (see
// the constants and docs/variants.md); the others stay zero.
type Rule struct {
	Type    Type   `json:"type"`
	Cells   []Cell `json:"cells,omitempty"`
	Total   *int   `json:"total,omitempty"`   // killer (optional), littlekiller, sandwich
	Circle  int    `json:"circle,omitempty"`  // arrow: 1 circle cell, or 2 (a pill read in cell order)
	Dir     Dir    `json:"dir,omitempty"`     // littlekiller: the diagonal step from Cells[0]
	Line    string `json:"line,omitempty"`    // sandwich: r1-r9 or c1-c9
	Regions string `json:"regions,omitempty"` // jigsaw: 81 region digits 1-9, row by row
}

// Dir is a diagonal step: "dr" (down right), "dl", "ur", "ul".
type Dir string

// step returns the row and column step of d.
func (d Dir) step() (dr, dc int, ok bool) {
	switch d {
	case "dr":
		return 1, 1, true
	case "dl":
		return 1, -1, true
	case "ur":
		return -1, 1, true
	case "ul":
		return -1, -1, true
	}
	return 0, 0, false
}

// Puzzle is a variant puzzle: the givens (0 for an empty cell; every
// variant may have none) and its rules. A puzzle without rules is a
// classic puzzle, which package sudoku solves and canonicalises.
type Puzzle struct {
	Givens sudoku.Grid `json:"givens"`
	Rules  []Rule      `json:"rules,omitempty"`
}

// Classic reports whether p has no rules.
func (p Puzzle) Classic() bool { return len(p.Rules) == 0 }

// Limits of what a puzzle may hold (docs/variants.md).
const (
	MaxBytes = 64 << 10 // the written form
	MaxRules = 400      // rules in one puzzle
	MaxLine  = 81       // cells of a line (whispers, renban: 9; arrow: 10 + circle)
)

// Parse reads the written form (Text's JSON, in any field order or
// spacing) and validates it. It fails with a *RuleError naming the rule and
// the cell, or a plain error for text that is not the written form.
func Parse(data []byte) (Puzzle, error) {
	if len(data) > MaxBytes {
		return Puzzle{}, fmt.Errorf("puzzle is %d bytes, over the limit of %d", len(data), MaxBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Puzzle
	if err := dec.Decode(&p); err != nil {
		return Puzzle{}, fmt.Errorf("not a variant puzzle: %w", err)
	}
	if dec.More() {
		return Puzzle{}, fmt.Errorf("not a variant puzzle: text after the puzzle")
	}
	if err := p.Validate(); err != nil {
		return Puzzle{}, err
	}
	return p, nil
}

// Text returns the written form of p as it stands: compact JSON, fields in
// a fixed order. Text(Normal(p)) is the same for every way of listing the
// same rules; Canonical's Text is the puzzle's identity.
func (p Puzzle) Text() string {
	b, err := json.Marshal(p)
	if err != nil {
		return "" // only a cell outside the grid; Validate refuses it first
	}
	return string(b)
}

// Normal returns p with each rule in its one normal writing (cells of a
// set sorted, an undirected line from its smaller end, odd and even cells
// merged into one rule each) and the rules sorted by their written form.
// It does not move the grid (Canonical does).
func Normal(p Puzzle) Puzzle {
	out := Puzzle{Givens: p.Givens}
	var odd, even []Cell
	for _, r := range p.Rules {
		switch r.Type {
		case Odd:
			odd = append(odd, r.Cells...)
			continue
		case Even:
			even = append(even, r.Cells...)
			continue
		}
		out.Rules = append(out.Rules, normalRule(r))
	}
	for _, oe := range []struct {
		t     Type
		cells []Cell
	}{{Odd, odd}, {Even, even}} {
		if len(oe.cells) > 0 {
			c := slices.Clone(oe.cells)
			slices.Sort(c)
			out.Rules = append(out.Rules, Rule{Type: oe.t, Cells: slices.Compact(c)})
		}
	}
	keys := make([]string, len(out.Rules))
	idx := make([]int, len(out.Rules))
	for i, r := range out.Rules {
		b, _ := json.Marshal(r)
		keys[i], idx[i] = string(b), i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if keys[a] < keys[b] {
			return -1
		} else if keys[a] > keys[b] {
			return 1
		}
		return 0
	})
	sorted := make([]Rule, len(idx))
	for i, j := range idx {
		sorted[i] = out.Rules[j]
	}
	if len(sorted) == 0 {
		sorted = nil
	}
	out.Rules = sorted
	return out
}

// normalRule writes one rule in its normal form.
func normalRule(r Rule) Rule {
	r.Cells = slices.Clone(r.Cells)
	switch r.Type {
	case Killer, White, Black, X, V, ExtraRegion:
		slices.Sort(r.Cells)
	case Whispers, Renban, Palindrome:
		if len(r.Cells) > 1 && r.Cells[len(r.Cells)-1] < r.Cells[0] {
			slices.Reverse(r.Cells)
		}
	case LittleKiller:
		r.Cells, r.Dir = normalDiagonal(r.Cells, r.Dir)
	case Jigsaw:
		r.Regions = normalRegions(r.Regions)
	}
	return r
}

// normalDiagonal writes a little killer's diagonal from its upper end, going
// down: the same cells, whichever end the clue was drawn at.
func normalDiagonal(cells []Cell, d Dir) ([]Cell, Dir) {
	diag := diagonalCells(cells, d)
	if len(diag) == 0 {
		return cells, d
	}
	first, last := diag[0], diag[len(diag)-1]
	if len(diag) == 1 {
		return []Cell{first}, cornerDir(first)
	}
	if first < last {
		return []Cell{first}, d
	}
	dr, dc, _ := d.step()
	return []Cell{last}, dirOf(-dr, -dc)
}

// cornerDir is the step of a corner's one-cell diagonal: r1c1 and r9c9 lie
// on the one-cell "/" diagonals, r1c9 and r9c1 on the "\" ones.
func cornerDir(c Cell) Dir {
	if c == 0 || c == 80 {
		return "dl"
	}
	return "dr"
}

// dirOf names a diagonal step.
func dirOf(dr, dc int) Dir {
	switch {
	case dr > 0 && dc > 0:
		return "dr"
	case dr > 0:
		return "dl"
	case dc > 0:
		return "ur"
	}
	return "ul"
}

// diagonalCells returns the cells of a little killer: from the first cell
// along the step to the edge. Nil when the rule is malformed.
func diagonalCells(cells []Cell, d Dir) []Cell {
	dr, dc, ok := d.step()
	if len(cells) != 1 || !ok || cells[0] > 80 {
		return nil
	}
	var out []Cell
	for r, c := cells[0].row(), cells[0].col(); r >= 0 && r < 9 && c >= 0 && c < 9; r, c = r+dr, c+dc {
		out = append(out, Cell(r*9+c))
	}
	return out
}

// normalRegions renumbers jigsaw regions in order of first appearance, so
// the same regions are written one way.
func normalRegions(s string) string {
	if len(s) != 81 {
		return s
	}
	var names [256]byte
	next := byte('1')
	b := []byte(s)
	for i, ch := range b {
		if names[ch] == 0 {
			if next > '9' {
				return s // more than nine regions: Validate says so
			}
			names[ch] = next
			next++
		}
		b[i] = names[ch]
	}
	return string(b)
}

// sandwichCells returns the nine cells of a sandwich's row or column, in
// order, and false for a malformed line.
func sandwichCells(line string) ([9]Cell, bool) {
	var out [9]Cell
	if len(line) != 2 || line[1] < '1' || line[1] > '9' {
		return out, false
	}
	k := int(line[1] - '1')
	for j := range 9 {
		switch line[0] {
		case 'r':
			out[j] = Cell(k*9 + j)
		case 'c':
			out[j] = Cell(j*9 + k)
		default:
			return out, false
		}
	}
	return out, true
}
