package fpuzzles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/variant"
)

// gridKeys are the keys of a grid cell that hold no rule: a solver's
// pencil marks and colours.
var gridKeys = []string{"centerPencilMarks", "cornerPencilMarks", "highlight", "c", "cellColor"}

// grid reads the givens and the regions. A value is a given unless the
// cell says "given": false (a digit a solver entered). A cell's region
// defaults to its box, so only jigsaw cells need one.
func (b *builder) grid(raw json.RawMessage) error {
	var g [][]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &g); err != nil || len(g) != 9 {
		return errAt("grid", 0, "", "the grid is not 9 rows of cells")
	}
	var regions [81]byte
	jigsaw := false
	for r, row := range g {
		if len(row) != 9 {
			return errAt("grid", 0, "", "row %d has %d cells, not 9", r+1, len(row))
		}
		for c, fields := range row {
			at := rc(r+1, c+1)
			regions[r*9+c] = byte('1' + r/3*3 + c/3)
			d, region, err := gridCell(at, fields)
			if err != nil {
				return err
			}
			b.p.Givens[r*9+c] = d
			if region >= 0 {
				regions[r*9+c] = byte('1' + region)
				jigsaw = jigsaw || region != r/3*3+c/3
			}
		}
	}
	if jigsaw {
		b.add("grid", 0, variant.Rule{Type: variant.Jigsaw, Regions: string(regions[:])})
	}
	return nil
}

// gridCell reads one cell: its given (0 for none) and region (-1 for the
// default).
func gridCell(at string, fields map[string]json.RawMessage) (given uint8, region int, err error) {
	region = -1
	var value int
	isGiven := true
	for k, v := range fields {
		switch {
		case k == "value":
			if json.Unmarshal(v, &value) != nil || value < 0 || value > 9 {
				return 0, 0, errAt("grid", 0, at, "value %s is not a digit", truncate(string(v)))
			}
		case k == "given":
			if json.Unmarshal(v, &isGiven) != nil {
				return 0, 0, errAt("grid", 0, at, "given %s is not true or false", truncate(string(v)))
			}
		case k == "region":
			if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
				return 0, 0, unsupported("grid", 0, at, "a cell outside every region")
			}
			if json.Unmarshal(v, &region) != nil || region < 0 || region > 8 {
				return 0, 0, errAt("grid", 0, at, "region %s is not 0 to 8", truncate(string(v)))
			}
		case slices.Contains(gridKeys, k) || empty(v):
		default:
			return 0, 0, unsupported("grid", 0, at, "the archive has no rule for the cell's %q", truncate(k))
		}
	}
	if !isGiven {
		value = 0
	}
	return uint8(value), region, nil
}

func (b *builder) cages(d *document) error {
	for i, e := range d.KillerCage {
		cs, err := cells("killercage", i+1, e.Cells)
		if err != nil {
			return err
		}
		r := variant.Rule{Type: variant.Killer, Cells: cs}
		n, ok, err := e.Value.number("killercage", i+1, first(e.Cells))
		if err != nil {
			return err
		}
		if ok {
			r.Total = &n
		}
		b.add("killercage", i+1, r)
	}
	return nil
}

func first(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return truncate(list[0])
}

// steps are f-puzzles' little killer directions.
var steps = map[string][2]int{"DR": {1, 1}, "DL": {1, -1}, "UR": {-1, 1}, "UL": {-1, -1}}

// littleKillers reads little killer clues: a cell outside the grid and a
// direction; the diagonal starts at the cell the direction leads to.
func (b *builder) littleKillers(d *document) error {
	const n = "littlekillersum"
	for i, e := range d.LittleKillerSum {
		r, c, ok := parseCell(e.Cell)
		if !ok {
			return errAt(n, i+1, truncate(e.Cell), "not a clue cell: expected R0C1 to R10C10")
		}
		st, ok := steps[strings.ToUpper(e.Direction)]
		if !ok {
			return errAt(n, i+1, e.Cell, "direction %q is not DR, DL, UR or UL", truncate(e.Direction))
		}
		if r >= 1 && r <= 9 && c >= 1 && c <= 9 {
			return errAt(n, i+1, e.Cell, "a little killer clue sits outside the grid")
		}
		fr, fc := r+st[0], c+st[1]
		if fr < 1 || fr > 9 || fc < 1 || fc > 9 {
			return errAt(n, i+1, e.Cell, "the clue's diagonal misses the grid")
		}
		total, ok, err := e.Value.number(n, i+1, e.Cell)
		if err != nil {
			return err
		}
		if !ok {
			return errAt(n, i+1, e.Cell, "a little killer needs a total")
		}
		dir := variant.Dir(strings.ToLower(e.Direction))
		b.add(n, i+1, variant.Rule{Type: variant.LittleKiller, Cells: []variant.Cell{variant.Cell((fr-1)*9 + fc - 1)}, Dir: dir, Total: &total})
	}
	return nil
}

// sandwiches reads sandwich clues: above a column (R0Cn) or left of a row
// (RnC0); below or right reads the same line.
func (b *builder) sandwiches(d *document) error {
	const n = "sandwichsum"
	for i, e := range d.SandwichSum {
		r, c, ok := parseCell(e.Cell)
		inR, inC := r >= 1 && r <= 9, c >= 1 && c <= 9
		var line string
		switch {
		case ok && inC && (r == 0 || r == 10):
			line = fmt.Sprintf("c%d", c)
		case ok && inR && (c == 0 || c == 10):
			line = fmt.Sprintf("r%d", r)
		default:
			return errAt(n, i+1, truncate(e.Cell), "a sandwich clue sits just outside a row or column")
		}
		total, ok, err := e.Value.number(n, i+1, e.Cell)
		if err != nil {
			return err
		}
		if !ok {
			return errAt(n, i+1, e.Cell, "a sandwich clue needs a total")
		}
		b.add(n, i+1, variant.Rule{Type: variant.Sandwich, Line: line, Total: &total})
	}
	return nil
}

// arrows reads arrows: the circle's cells (one, or two for a pill, read
// in the order listed, as the solvers that read f-puzzles do) and lines
// that start in the circle; each line is one rule.
func (b *builder) arrows(d *document) error {
	const n = "arrow"
	for i, e := range d.Arrow {
		circle, err := cells(n, i+1, e.Cells)
		if err != nil {
			return err
		}
		if len(circle) == 0 || len(circle) > 2 {
			return unsupported(n, i+1, first(e.Cells), "a circle of %d cells: the archive reads one cell or a pill of two", len(circle))
		}
		if len(e.Lines) == 0 {
			return errAt(n, i+1, first(e.Cells), "an arrow without a line")
		}
		for _, l := range e.Lines {
			line, err := cells(n, i+1, l)
			if err != nil {
				return err
			}
			k := 0
			for k < len(line) && slices.Contains(circle, line[k]) {
				k++
			}
			if k == 0 {
				return errAt(n, i+1, first(l), "the arrow's line does not start in its circle")
			}
			rule := variant.Rule{Type: variant.Arrow, Circle: len(circle), Cells: append(slices.Clone(circle), line[k:]...)}
			b.add(n, i+1, rule)
		}
	}
	return nil
}

// dots reads kropki dots and XV: a white dot is a difference of 1, a
// black one a ratio of 2; other values are other rules.
func (b *builder) dots(d *document) error {
	for _, set := range []struct {
		name    string
		entries []cellsEntry
	}{{"difference", d.Difference}, {"ratio", d.Ratio}, {"xv", d.XV}} {
		for i, e := range set.entries {
			cs, err := cells(set.name, i+1, e.Cells)
			if err != nil {
				return err
			}
			t, ok := dotType(set.name, string(e.Value))
			if !ok {
				return unsupported(set.name, i+1, first(e.Cells), "value %q: the archive has white (difference 1), black (ratio 2), X and V", truncate(string(e.Value)))
			}
			b.add(set.name, i+1, variant.Rule{Type: t, Cells: cs})
		}
	}
	return nil
}

func dotType(name, value string) (variant.Type, bool) {
	switch {
	case name == "difference" && (value == "" || value == "1"):
		return variant.White, true
	case name == "ratio" && (value == "" || value == "2"):
		return variant.Black, true
	case name == "xv" && strings.EqualFold(value, "x"):
		return variant.X, true
	case name == "xv" && strings.EqualFold(value, "v"):
		return variant.V, true
	}
	return "", false
}

// lines reads thermometers, whispers, renban and palindromes: each line
// of an entry is one rule (a thermometer's branches share its bulb).
func (b *builder) lines(d *document) error {
	for _, set := range []struct {
		name    string
		t       variant.Type
		entries []linesEntry
	}{
		{"thermometer", variant.Thermo, d.Thermometer}, {"whispers", variant.Whispers, d.Whispers},
		{"renban", variant.Renban, d.Renban}, {"palindrome", variant.Palindrome, d.Palindrome},
	} {
		for i, e := range set.entries {
			if len(e.Lines) == 0 {
				return errAt(set.name, i+1, "", "an entry without a line")
			}
			for _, l := range e.Lines {
				cs, err := cells(set.name, i+1, l)
				if err != nil {
					return err
				}
				b.add(set.name, i+1, variant.Rule{Type: set.t, Cells: cs})
			}
		}
	}
	return nil
}

// parity reads odd and even cells, one rule of each.
func (b *builder) parity(d *document) error {
	for _, set := range []struct {
		name    string
		t       variant.Type
		entries []cellEntry
	}{{"odd", variant.Odd, d.Odd}, {"even", variant.Even, d.Even}} {
		var cs []variant.Cell
		for i, e := range set.entries {
			c, err := cell(set.name, i+1, e.Cell)
			if err != nil {
				return err
			}
			if slices.Contains(cs, c) {
				continue // drawn twice: one odd cell
			}
			cs = append(cs, c)
		}
		if len(cs) > 0 {
			b.add(set.name, 0, variant.Rule{Type: set.t, Cells: cs})
		}
	}
	return nil
}
