package logic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Candidate is one digit in one cell.
type Candidate struct {
	Cell  int `json:"cell"`  // 0-80, row by row
	Digit int `json:"digit"` // 1-9
}

// Node is one link end of a chain: a candidate that is true (On) or false.
type Node struct {
	Candidate
	On bool `json:"on"`
}

// Step is one deduction, as plain data. Text is rendered from the data by
// the technique's own function (see render), so it never disagrees with it.
type Step struct {
	Technique    string      `json:"technique"`
	Grade        float64     `json:"grade"`
	Cells        []int       `json:"cells"`
	Placements   []Candidate `json:"placements"`
	Eliminations []Candidate `json:"eliminations"`
	Text         string      `json:"text"`

	// Units the step talks about (0-8 rows, 9-17 columns, 18-26 boxes), in
	// the order the text uses them.
	Units []int `json:"-"`
	// Digits the pattern is made of, in the order the text uses them (the
	// candidates a board draws in the step's cells).
	Digits []int `json:"digits"`
	// Chain is the chain's nodes in order (chain techniques only): for a
	// forcing chain the first node is the assumption.
	Chain []Node `json:"-"`
	// Branches counts the assumptions of a cell or unit forcing chain.
	Branches int `json:"-"`
	// Length is the chain's complexity (nodes counted by Sudoku Explainer's
	// rule), which the grade's length bonus comes from.
	Length int `json:"-"`
	// Nested: the nested chains on the paths of a nested forcing chain
	// (chains_nested.go), as the explanation shows them.
	Nested []NestedChain `json:"nested,omitempty"`

	// roof: the rectangle's cells with extra digits (unique rectangle type
	// 3) or the pair of aligned pair exclusion; set and setDigits: the other
	// cells and the digits of the naked set of a type 3 (unique rectangle,
	// BUG), or the excluding cells of aligned pair exclusion.
	roof, set, setDigits []int
	// implied: the eliminations a direct step (Direct Pointing, Direct
	// Claiming) reasons with but does not make. Like Sudoku Explainer's
	// direct hints it only places its digit, so the candidates stay for a
	// later step (a Pointing at 2.6, say) to remove.
	implied []Candidate
	// paths: the implication chains of a forcing chain that compares
	// branches (Nishio, cell, region and dynamic forcing chains), each
	// from its assumption to its conclusion (Links draws them).
	paths [][]Node
}

// cellName writes a cell as rNcM, 1-based.
func cellName(c int) string { return cellNames[c] }

// unitName writes a unit as "row 3", "column 5" or "box 9".
func unitName(u int) string {
	if u >= 27 {
		return extraName(u)
	}
	return unitNames[u]
}

// The names of the cells and units, written once.
var cellNames, unitNames = func() (cs [81]string, us [27]string) {
	for c := range cs {
		cs[c] = fmt.Sprintf("r%dc%d", c/9+1, c%9+1)
	}
	for u := range us {
		us[u] = writeUnitName(u)
	}
	return
}()

func writeUnitName(u int) string {
	switch u / 9 {
	case 0:
		return fmt.Sprintf("row %d", u+1)
	case 1:
		return fmt.Sprintf("column %d", u-8)
	}
	return fmt.Sprintf("box %d", u-17)
}

func cellList(cs []int) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = cellName(c)
	}
	return andList(names)
}

func digitList(ds []int) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = strconv.Itoa(d)
	}
	return andList(names)
}

func andList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// orList writes digits as "1 or 5".
func orList(ds []int) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = strconv.Itoa(d)
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func nodeName(n Node) string {
	if n.On {
		return cellName(n.Cell) + "=" + strconv.Itoa(n.Digit)
	}
	return cellName(n.Cell) + "≠" + strconv.Itoa(n.Digit)
}

// outcome says what the step does: placements first, then eliminations
// grouped by digit.
func (s Step) outcome() string {
	var parts []string
	for _, p := range s.Placements {
		parts = append(parts, fmt.Sprintf("%s is %d", cellName(p.Cell), p.Digit))
	}
	if len(parts) == 0 || len(s.Eliminations) > 0 {
		byDigit := map[int][]int{}
		var ds []int
		for _, e := range s.Eliminations {
			if byDigit[e.Digit] == nil {
				ds = append(ds, e.Digit)
			}
			byDigit[e.Digit] = append(byDigit[e.Digit], e.Cell)
		}
		slices.Sort(ds)
		for _, d := range ds {
			parts = append(parts, fmt.Sprintf("%d is removed from %s", d, cellList(byDigit[d])))
		}
	}
	return andList(parts)
}

// render writes the step's sentence from its data.
func (s Step) render() string {
	t := techByName[s.Technique]
	if t == nil {
		return fmt.Sprintf("%s: %s.", s.Technique, s.outcome())
	}
	return t.render(s)
}

// Map returns the step with every cell and digit it refers to remapped
// (cell and digit are bijections, e.g. a validity-preserving transformation
// of the grid and a relabelling), units recomputed from the mapped cells and
// the text rendered again.
func (s Step) Map(cell func(int) int, digit func(int) int) Step {
	t := s
	t.Cells = make([]int, len(s.Cells))
	for i, c := range s.Cells {
		t.Cells[i] = cell(c)
	}
	slices.Sort(t.Cells)
	mapCands := func(cs []Candidate) []Candidate {
		out := make([]Candidate, len(cs))
		for i, c := range cs {
			out[i] = Candidate{cell(c.Cell), digit(c.Digit)}
		}
		slices.SortFunc(out, func(a, b Candidate) int {
			if a.Cell != b.Cell {
				return a.Cell - b.Cell
			}
			return a.Digit - b.Digit
		})
		return out
	}
	t.Placements = mapCands(s.Placements)
	t.Eliminations = mapCands(s.Eliminations)
	if s.implied != nil {
		t.implied = mapCands(s.implied)
	}
	t.Units = make([]int, len(s.Units))
	for i, u := range s.Units {
		t.Units[i] = unitThrough(cell(unitCells[u][0]), cell(unitCells[u][4]))
	}
	t.Digits = make([]int, len(s.Digits))
	for i, d := range s.Digits {
		t.Digits[i] = digit(d)
	}
	mapCells := func(cs []int) []int {
		if cs == nil {
			return nil
		}
		out := make([]int, len(cs))
		for i, c := range cs {
			out[i] = cell(c)
		}
		slices.Sort(out)
		return out
	}
	t.roof, t.set = mapCells(s.roof), mapCells(s.set)
	if s.setDigits != nil {
		t.setDigits = make([]int, len(s.setDigits))
		for i, d := range s.setDigits {
			t.setDigits[i] = digit(d)
		}
		slices.Sort(t.setDigits)
	}
	if s.Chain != nil {
		t.Chain = make([]Node, len(s.Chain))
		for i, n := range s.Chain {
			t.Chain[i] = Node{Candidate{cell(n.Cell), digit(n.Digit)}, n.On}
		}
	}
	if s.paths != nil {
		t.paths = make([][]Node, len(s.paths))
		for k, p := range s.paths {
			t.paths[k] = make([]Node, len(p))
			for i, n := range p {
				t.paths[k][i] = Node{Candidate{cell(n.Cell), digit(n.Digit)}, n.On}
			}
		}
	}
	if s.Nested != nil {
		mn := func(n Node) Node { return Node{Candidate{cell(n.Cell), digit(n.Digit)}, n.On} }
		t.Nested = make([]NestedChain, len(s.Nested))
		for i, nc := range s.Nested {
			t.Nested[i] = NestedChain{nc.Kind, mn(nc.Assumption), mn(nc.Proves), nc.Length}
		}
	}
	t.Text = t.render()
	return t
}

// unitThrough returns the unit holding both cells; cells 0 and 4 of any unit
// share that unit only, and a transformation keeps that true.
func unitThrough(a, b int) int {
	switch {
	case rowOf(a) == rowOf(b):
		return rowOf(a)
	case colOf(a) == colOf(b):
		return 9 + colOf(a)
	}
	return 18 + boxOf(a)
}
