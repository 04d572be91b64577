package templates

import (
	"math"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/logic"
)

// The drawing of a step over a board (stepOverlay, and static/js/draw.js in
// the browser, which draws the same from the step's JSON): an SVG the size
// of the board, 100 units a cell, with the candidates the pattern is made
// of ringed, the chain's links as lines (strong solid, weak dashed, as
// SudokuWiki and HoDoKu draw them) and the eliminations crossed out.

// cellUnits is a cell's side in the drawing's units; nodeRadius a ring's.
const (
	cellUnits  = 100
	nodeRadius = 14
)

// DrawPoint is a candidate in the drawing: its place and what it is.
type DrawPoint struct {
	X, Y  float64
	Cell  int
	Digit int
}

// DrawLink is a link of a chain: from one candidate's ring to another's.
type DrawLink struct {
	X1, Y1, X2, Y2 float64
	Strong         bool
	From, To       DrawPoint
}

// StepDrawing is what a board draws of a step.
type StepDrawing struct {
	Nodes  []DrawPoint
	Links  []DrawLink
	Struck []DrawPoint
}

// Empty reports whether there is nothing to draw.
func (d StepDrawing) Empty() bool { return len(d.Nodes)+len(d.Links)+len(d.Struck) == 0 }

// candidatePoint is the centre of digit d's pencil mark in cell c.
func candidatePoint(c, d int) DrawPoint {
	third := float64(cellUnits) / 3
	return DrawPoint{
		X:    float64(c%9*cellUnits) + float64((d-1)%3)*third + third/2,
		Y:    float64(c/9*cellUnits) + float64((d-1)/3)*third + third/2,
		Cell: c, Digit: d,
	}
}

// DrawStep draws st on a board whose candidates are cands (bit d for
// digit d): a chain's links and their candidates, or, for a pattern with
// no links, the step's digits in its cells where they are candidates; and
// the eliminations.
func DrawStep(st logic.Step, cands [81]uint16) StepDrawing {
	var d StepDrawing
	seen := map[[2]int]bool{}
	node := func(c, x int) DrawPoint {
		p := candidatePoint(c, x)
		if !seen[[2]int{c, x}] {
			seen[[2]int{c, x}] = true
			d.Nodes = append(d.Nodes, p)
		}
		return p
	}
	for _, l := range st.Links() {
		a, b := node(l.From.Cell, l.From.Digit), node(l.To.Cell, l.To.Digit)
		d.Links = append(d.Links, shorten(a, b, l.Strong))
	}
	if len(d.Links) == 0 {
		for _, c := range st.Cells {
			for _, x := range st.Digits {
				if cands[c]&(1<<x) != 0 {
					node(c, x)
				}
			}
		}
	}
	for _, e := range st.Eliminations {
		d.Struck = append(d.Struck, candidatePoint(e.Cell, e.Digit))
	}
	return d
}

// shorten draws the link from ring to ring, not centre to centre.
func shorten(a, b DrawPoint, strong bool) DrawLink {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := math.Hypot(dx, dy)
	l := DrawLink{X1: a.X, Y1: a.Y, X2: b.X, Y2: b.Y, Strong: strong, From: a, To: b}
	if n > 2*nodeRadius {
		ux, uy := dx/n*nodeRadius, dy/n*nodeRadius
		l.X1, l.Y1, l.X2, l.Y2 = a.X+ux, a.Y+uy, b.X-ux, b.Y-uy
	}
	return l
}

// unit writes a coordinate of the drawing.
func unit(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// candKey names a candidate in the drawing's data attributes: "cell-digit".
func candKey(p DrawPoint) string { return strconv.Itoa(p.Cell) + "-" + strconv.Itoa(p.Digit) }

// crossPath is the two strokes that cross out an elimination.
func crossPath(p DrawPoint) string {
	const r = 11
	return "M" + unit(p.X-r) + " " + unit(p.Y-r) + "L" + unit(p.X+r) + " " + unit(p.Y+r) +
		"M" + unit(p.X-r) + " " + unit(p.Y+r) + "L" + unit(p.X+r) + " " + unit(p.Y-r)
}

// linkClass is a link's class: strong links are drawn solid, weak dashed.
func linkClass(l DrawLink) string {
	if l.Strong {
		return "chain-link chain-strong"
	}
	return "chain-link chain-weak"
}
