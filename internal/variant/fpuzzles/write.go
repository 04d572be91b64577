package fpuzzles

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/variant"
)

type gridCellOut struct {
	Value  int  `json:"value,omitempty"`
	Given  bool `json:"given,omitempty"`
	Region *int `json:"region,omitempty"`
}

// Write returns p as f-puzzles JSON; every rule has an f-puzzles form.
// It fails only for a puzzle that is not valid.
func Write(p Puzzle) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("f-puzzles: %w", err)
	}
	d := document{Size: 9, Title: p.Title, Author: p.Author, Ruleset: p.Ruleset}
	var grid [9][9]gridCellOut
	for i, g := range p.Givens {
		if g != 0 {
			grid[i/9][i%9] = gridCellOut{Value: int(g), Given: true}
		}
	}
	for _, r := range p.Rules {
		d.addRule(r, &grid)
	}
	raw, err := json.Marshal(grid)
	if err != nil {
		return nil, err
	}
	d.Grid = raw
	return json.Marshal(d)
}

func names(cs []variant.Cell) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = name(c)
	}
	return out
}

// addRule writes one rule into d (a jigsaw into the grid's cells).
func (d *document) addRule(r variant.Rule, grid *[9][9]gridCellOut) {
	switch r.Type {
	case variant.DiagonalPlus:
		d.DiagonalPlus = true
	case variant.DiagonalMinus:
		d.DiagonalMinus = true
	case variant.AntiKnight:
		d.AntiKnight = true
	case variant.AntiKing:
		d.AntiKing = true
	case variant.Disjoint:
		d.DisjointGroups = true
	case variant.NonConsecutive:
		d.NonConsecutive = true
	case variant.KropkiNegative:
		d.Negative = append(d.Negative, "ratio", "difference")
	case variant.XVNegative:
		d.Negative = append(d.Negative, "xv")
	case variant.Windoku, variant.Asterisk, variant.CentreDot, variant.Girandola:
		for _, g := range variant.DrawnRegions(r.Type) {
			d.ExtraRegion = append(d.ExtraRegion, cellsEntry{Cells: names(g)})
		}
	case variant.ExtraRegion:
		d.ExtraRegion = append(d.ExtraRegion, cellsEntry{Cells: names(r.Cells)})
	case variant.Jigsaw:
		for i := range 81 {
			region := int(r.Regions[i] - '1')
			grid[i/9][i%9].Region = &region
		}
	case variant.Killer:
		e := cellsEntry{Cells: names(r.Cells)}
		if r.Total != nil {
			e.Value = clue(fmt.Sprint(*r.Total))
		}
		d.KillerCage = append(d.KillerCage, e)
	case variant.LittleKiller:
		d.LittleKillerSum = append(d.LittleKillerSum, littleKiller(r))
	case variant.Sandwich:
		at := rc(0, int(r.Line[1]-'0'))
		if r.Line[0] == 'r' {
			at = rc(int(r.Line[1]-'0'), 0)
		}
		d.SandwichSum = append(d.SandwichSum, cellEntry{Cell: at, Value: clue(fmt.Sprint(*r.Total))})
	case variant.Arrow:
		d.arrow(r)
	default:
		d.addCellsRule(r)
	}
}

// addCellsRule writes the rules that are cells and nothing else.
func (d *document) addCellsRule(r variant.Rule) {
	line := linesEntry{Lines: [][]string{names(r.Cells)}}
	dot := cellsEntry{Cells: names(r.Cells)}
	switch r.Type {
	case variant.Thermo:
		d.Thermometer = append(d.Thermometer, line)
	case variant.Whispers:
		d.Whispers = append(d.Whispers, line)
	case variant.Renban:
		d.Renban = append(d.Renban, line)
	case variant.Palindrome:
		d.Palindrome = append(d.Palindrome, line)
	case variant.White:
		d.Difference = append(d.Difference, dot)
	case variant.Black:
		d.Ratio = append(d.Ratio, dot)
	case variant.X, variant.V:
		dot.Value = clue(strings.ToUpper(string(r.Type)))
		d.XV = append(d.XV, dot)
	case variant.Odd, variant.Even:
		for _, c := range r.Cells {
			e := cellEntry{Cell: name(c)}
			if r.Type == variant.Odd {
				d.Odd = append(d.Odd, e)
			} else {
				d.Even = append(d.Even, e)
			}
		}
	}
}

// littleKiller writes a little killer's clue in the cell before its
// first cell, with the diagonal's cells as f-puzzles lists them.
func littleKiller(r variant.Rule) littleEntry {
	st := steps[strings.ToUpper(string(r.Dir))]
	row, col := int(r.Cells[0])/9+1, int(r.Cells[0])%9+1
	e := littleEntry{Cell: rc(row-st[0], col-st[1]), Direction: strings.ToUpper(string(r.Dir)), Value: clue(fmt.Sprint(*r.Total))}
	for ; row >= 1 && row <= 9 && col >= 1 && col <= 9; row, col = row+st[0], col+st[1] {
		e.Cells = append(e.Cells, rc(row, col))
	}
	return e
}

// arrow writes an arrow: its circle, and its line from the circle's cell
// the line leaves.
func (d *document) arrow(r variant.Rule) {
	circle, line := r.Cells[:r.Circle], r.Cells[r.Circle:]
	from := circle[0]
	if r.Circle == 2 && distance(circle[1], line[0]) < distance(circle[0], line[0]) {
		from = circle[1] // the pill's cell nearer the line: a side before a corner
	}
	l := append([]string{name(from)}, names(line)...)
	d.Arrow = append(d.Arrow, arrowEntry{Cells: names(circle), Lines: [][]string{l}})
}

// distance is the squared distance between two cells' centres.
func distance(a, b variant.Cell) int {
	dr, dc := int(a)/9-int(b)/9, int(a)%9-int(b)%9
	return dr*dr + dc*dc
}
