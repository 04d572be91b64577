package templates

import (
	"math"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// The drawing of a variant's rules on a board (variantOverlay), as setters
// and solvers know them from f-puzzles and SudokuPad: an SVG the size of
// the cells, 100 units a cell like the step's drawing (drawing.go), in two
// layers. The lower one (shaded regions, diagonals, lines, thermometers,
// arrows, parity shapes, cages) blends with the cells under it (multiply in
// light, screen in dark: static/css/variant.css), so digits, marks,
// selection and colours read through it as they read over SudokuPad's
// under-layer; the upper one holds what must stay opaque (dots, X and V,
// cage totals, the clues outside the grid). Both take no clicks. The
// geometry is computed here so the templ only writes it out.

// Drawing units: the inset of a cage's outline, the radii of a bulb, an
// arrow's circle, a dot, an odd circle; the half side of an even square;
// how far outside the grid a clue sits.
const (
	cageInset   = 7
	bulbRadius  = 34
	arrowRadius = 38
	dotRadius   = 11
	oddRadius   = 34
	evenHalf    = 32
	clueOut     = 36
	headLength  = 24
)

// VPoint is a point of the drawing.
type VPoint struct{ X, Y float64 }

// VShape is one drawn shape: Class says what it is (the CSS class), and
// the fields its element needs.
type VShape struct {
	Class string
	Rule  int    // index of the rule drawn, -1 for none
	D     string // a path's or polyline's data
	X, Y  float64
	W, H  float64 // a rect's size; R its corner radius or a circle's radius
	R     float64
	Text  string
}

// VariantDrawing is what a board draws of a variant puzzle's rules.
type VariantDrawing struct {
	Under []VShape // blended with the cells
	Over  []VShape // opaque
	// Outside is set when clues sit outside the grid: the board then
	// keeps a margin around the cells.
	Outside bool
	// Jigsaw is set when regions replace the boxes; Edges then holds each
	// cell's data-edge ("r", "b", "r b" or ""), the regions' thick lines.
	Jigsaw bool
	Edges  [81]string
	// Cages is set when a killer cage has a total: the board then offers
	// its combinations.
	Cages bool
	// Words is the rules in words (variant.Words); Rules the rules'
	// written form, for play.js to name the rule a wrong digit breaks,
	// and Names each rule's name (variant.Name), in the same order.
	Words []string
	Rules string
	Names []string
}

// VariantOf returns the drawing of p's rules, nil for a classic puzzle (or
// rules that do not read, which a classic board then shows as givens).
func VariantOf(p record.Puzzle) *VariantDrawing {
	if p.Rules == "" {
		return nil
	}
	vp, err := p.VariantPuzzle()
	if err != nil || vp.Classic() {
		return nil
	}
	return DrawVariant(vp)
}

// DrawVariant computes the drawing of p's rules.
func DrawVariant(p variant.Puzzle) *VariantDrawing {
	d := &VariantDrawing{Words: variant.Words(p), Rules: string(record.RulesOf(p.Rules))}
	for i, r := range p.Rules {
		d.Names = append(d.Names, variant.Name(r))
		d.drawRule(i, r)
	}
	return d
}

// centre is the centre of cell c.
func centre(c variant.Cell) VPoint {
	return VPoint{float64(int(c)%9*cellUnits + cellUnits/2), float64(int(c)/9*cellUnits + cellUnits/2)}
}

func (d *VariantDrawing) under(s VShape) { d.Under = append(d.Under, s) }
func (d *VariantDrawing) over(s VShape)  { d.Over = append(d.Over, s) }

// drawRule adds rule i's shapes.
func (d *VariantDrawing) drawRule(i int, r variant.Rule) {
	switch r.Type {
	case variant.DiagonalPlus:
		d.under(VShape{Class: "v-diagonal", Rule: i, D: "M0 900L900 0"})
	case variant.DiagonalMinus:
		d.under(VShape{Class: "v-diagonal", Rule: i, D: "M0 0L900 900"})
	case variant.Windoku, variant.Asterisk, variant.CentreDot, variant.Girandola:
		for _, g := range variant.DrawnRegions(r.Type) {
			for _, c := range g {
				d.shade(i, c, "v-shade")
			}
		}
	case variant.Disjoint:
		// Subtle: each position of the box its own faint tint.
		for k, g := range variant.DrawnRegions(r.Type) {
			for _, c := range g {
				d.shade(i, c, "v-disjoint v-disjoint-"+strconv.Itoa(k+1))
			}
		}
	case variant.ExtraRegion:
		for _, c := range r.Cells {
			d.shade(i, c, "v-shade")
		}
	case variant.Jigsaw:
		d.Jigsaw = true
		d.Edges = regionEdges(r.Regions)
	case variant.Killer:
		d.Cages = d.Cages || r.Total != nil
		d.cage(i, r)
	case variant.LittleKiller:
		d.littleKiller(i, r)
	case variant.Sandwich:
		d.sandwich(i, r)
	case variant.Thermo:
		b := centre(r.Cells[0])
		d.under(VShape{Class: "v-thermo-line", Rule: i, D: polyline(r.Cells)})
		d.under(VShape{Class: "v-thermo-bulb", Rule: i, X: b.X, Y: b.Y, R: bulbRadius})
	case variant.Arrow:
		d.arrow(i, r)
	case variant.White, variant.Black, variant.X, variant.V:
		d.edgeMark(i, r)
	case variant.Odd:
		for _, c := range r.Cells {
			p := centre(c)
			d.under(VShape{Class: "v-odd", Rule: i, X: p.X, Y: p.Y, R: oddRadius})
		}
	case variant.Even:
		for _, c := range r.Cells {
			p := centre(c)
			d.under(VShape{Class: "v-even", Rule: i, X: p.X - evenHalf, Y: p.Y - evenHalf, W: 2 * evenHalf, H: 2 * evenHalf})
		}
	case variant.Whispers, variant.Renban, variant.Palindrome:
		d.under(VShape{Class: "v-line v-" + string(r.Type), Rule: i, D: polyline(r.Cells)})
	}
}

// shade shades cell c.
func (d *VariantDrawing) shade(i int, c variant.Cell, class string) {
	p := centre(c)
	d.under(VShape{Class: class, Rule: i, X: p.X - cellUnits/2, Y: p.Y - cellUnits/2, W: cellUnits, H: cellUnits})
}

// regionEdges marks the cells whose right or bottom side parts two
// regions, as boxEdge marks the boxes' sides.
func regionEdges(regions string) [81]string {
	var e [81]string
	if len(regions) != 81 {
		return e
	}
	for i := range 81 {
		var parts []string
		if i%9 < 8 && regions[i] != regions[i+1] {
			parts = append(parts, "r")
		}
		if i/9 < 8 && regions[i] != regions[i+9] {
			parts = append(parts, "b")
		}
		e[i] = strings.Join(parts, " ")
	}
	return e
}

// polyline is the path through the centres of cells.
func polyline(cells []variant.Cell) string {
	var b strings.Builder
	for k, c := range cells {
		p := centre(c)
		if k == 0 {
			b.WriteString("M")
		} else {
			b.WriteString("L")
		}
		b.WriteString(unit(p.X) + " " + unit(p.Y))
	}
	return b.String()
}

// cellEdge is the data-edge of cell i on a board drawing d: the regions'
// sides for a jigsaw, the boxes' otherwise.
func cellEdge(d *VariantDrawing, i int) templ.Attributes {
	if d == nil || !d.Jigsaw {
		return boxEdge(i)
	}
	if d.Edges[i] == "" {
		return nil
	}
	return templ.Attributes{"data-edge": d.Edges[i]}
}

// cage draws a killer cage: a dashed outline inside its cells' outer sides,
// and its total (if any) in the corner of its first cell, the top left one
// (the written form lists a cage's cells in order).
func (d *VariantDrawing) cage(i int, r variant.Rule) {
	in := map[int]bool{}
	for _, c := range r.Cells {
		in[int(c)] = true
	}
	has := func(row, col int) bool { return row >= 0 && row < 9 && col >= 0 && col < 9 && in[row*9+col] }
	var b strings.Builder
	// The four sides, each with the side across it (its two ends).
	dirs := [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}
	for _, c := range r.Cells {
		row, col := int(c)/9, int(c)%9
		p := centre(c)
		for _, dv := range dirs {
			if has(row+dv[0], col+dv[1]) {
				continue
			}
			pv := [2]int{dv[1], -dv[0]} // perpendicular (row, col)
			var ends [2]VPoint
			for k, s := range [2]int{-1, 1} {
				pr, pc := pv[0]*s, pv[1]*s
				e := float64(cageInset) // a convex corner: stop short
				if has(row+pr, col+pc) {
					e = 0 // the side goes on in the next cell
					if has(row+pr+dv[0], col+pc+dv[1]) {
						e = -cageInset // a concave corner: meet the turn
					}
				}
				ends[k] = VPoint{
					X: p.X + float64(dv[1])*(cellUnits/2-cageInset) + float64(pc)*(cellUnits/2-e),
					Y: p.Y + float64(dv[0])*(cellUnits/2-cageInset) + float64(pr)*(cellUnits/2-e),
				}
			}
			b.WriteString("M" + unit(ends[0].X) + " " + unit(ends[0].Y) + "L" + unit(ends[1].X) + " " + unit(ends[1].Y))
		}
	}
	d.under(VShape{Class: "v-cage", Rule: i, D: b.String()})
	if r.Total != nil {
		p := centre(r.Cells[0])
		t := strconv.Itoa(*r.Total)
		d.over(VShape{Class: "v-cage-total", Rule: i, X: p.X - cellUnits/2 + 3, Y: p.Y - cellUnits/2 + 3,
			W: float64(8 + 13*len(t)), H: 24, Text: t})
	}
}

// arrow draws an arrow: its circle (or pill over two cells), the line from
// the circle's edge through the other cells' centres, and the head.
func (d *VariantDrawing) arrow(i int, r variant.Rule) {
	n := max(1, r.Circle)
	if n > len(r.Cells) {
		n = len(r.Cells)
	}
	a, z := centre(r.Cells[0]), centre(r.Cells[n-1])
	d.under(VShape{Class: "v-arrow-circle", Rule: i, X: min(a.X, z.X) - arrowRadius, Y: min(a.Y, z.Y) - arrowRadius,
		W: math.Abs(z.X-a.X) + 2*arrowRadius, H: math.Abs(z.Y-a.Y) + 2*arrowRadius, R: arrowRadius})
	line := r.Cells[n:]
	if len(line) == 0 {
		return
	}
	// The line leaves the circle cell nearest its first cell, from the
	// circle's edge.
	next := centre(line[0])
	from := a
	if n == 2 && dist(z, next) < dist(a, next) {
		from = z
	}
	pts := []VPoint{toward(from, next, arrowRadius)}
	for _, c := range line {
		pts = append(pts, centre(c))
	}
	var b strings.Builder
	for k, p := range pts {
		if k == 0 {
			b.WriteString("M")
		} else {
			b.WriteString("L")
		}
		b.WriteString(unit(p.X) + " " + unit(p.Y))
	}
	tip, back := pts[len(pts)-1], pts[len(pts)-2]
	b.WriteString(head(back, tip))
	d.under(VShape{Class: "v-arrow-line", Rule: i, D: b.String()})
}

// head is an arrowhead's path at tip, for a line coming from back.
func head(back, tip VPoint) string {
	l := dist(back, tip)
	if l == 0 {
		return ""
	}
	ux, uy := (tip.X-back.X)/l, (tip.Y-back.Y)/l
	var b strings.Builder
	for _, s := range [2]float64{-1, 1} {
		// 30 degrees either side of the line, back from the tip.
		cos, sin := math.Cos(math.Pi/6), s*math.Sin(math.Pi/6)
		hx, hy := -(ux*cos - uy*sin), -(ux*sin + uy*cos)
		b.WriteString("M" + unit(tip.X) + " " + unit(tip.Y) + "L" + unit(tip.X+hx*headLength) + " " + unit(tip.Y+hy*headLength))
	}
	return b.String()
}

func dist(a, b VPoint) float64 { return math.Hypot(b.X-a.X, b.Y-a.Y) }

// toward is the point l units from a toward b.
func toward(a, b VPoint, l float64) VPoint {
	n := dist(a, b)
	if n == 0 {
		return a
	}
	return VPoint{a.X + (b.X-a.X)/n*l, a.Y + (b.Y-a.Y)/n*l}
}

// edgeMark draws a kropki dot, an X or a V on the side two cells share.
func (d *VariantDrawing) edgeMark(i int, r variant.Rule) {
	if len(r.Cells) != 2 {
		return
	}
	a, b := centre(r.Cells[0]), centre(r.Cells[1])
	m := VPoint{(a.X + b.X) / 2, (a.Y + b.Y) / 2}
	switch r.Type {
	case variant.White, variant.Black:
		d.over(VShape{Class: "v-dot v-" + string(r.Type), Rule: i, X: m.X, Y: m.Y, R: dotRadius})
	default:
		d.over(VShape{Class: "v-xv", Rule: i, X: m.X, Y: m.Y, Text: strings.ToUpper(string(r.Type))})
	}
}

// sandwich writes a sandwich's total left of its row or above its column.
func (d *VariantDrawing) sandwich(i int, r variant.Rule) {
	if r.Total == nil || len(r.Line) != 2 {
		return
	}
	k := float64(r.Line[1]-'1')*cellUnits + cellUnits/2
	p := VPoint{-clueOut, k}
	if r.Line[0] == 'c' {
		p = VPoint{k, -clueOut}
	}
	d.Outside = true
	d.over(VShape{Class: "v-clue", Rule: i, X: p.X, Y: p.Y, Text: strconv.Itoa(*r.Total)})
}

// littleKiller writes a little killer's total outside the grid where its
// diagonal leaves it, with a small arrow along the diagonal.
func (d *VariantDrawing) littleKiller(i int, r variant.Rule) {
	if r.Total == nil || len(r.Cells) != 1 {
		return
	}
	dr, dc := 0.0, 0.0
	switch r.Dir {
	case "dr":
		dr, dc = 1, 1
	case "dl":
		dr, dc = 1, -1
	case "ur":
		dr, dc = -1, 1
	case "ul":
		dr, dc = -1, -1
	default:
		return
	}
	first := centre(r.Cells[0])
	// One step back along the diagonal, pulled toward the grid so the
	// clue sits in the margin.
	back := float64(cellUnits/2 + clueOut)
	p := VPoint{first.X - dc*back, first.Y - dr*back}
	d.Outside = true
	d.over(VShape{Class: "v-clue", Rule: i, X: p.X - dc*14, Y: p.Y - dr*14, Text: strconv.Itoa(*r.Total)})
	a, b := VPoint{p.X + dc*16, p.Y + dr*16}, VPoint{p.X + dc*34, p.Y + dr*34}
	d.over(VShape{Class: "v-clue-arrow", Rule: i,
		D: "M" + unit(a.X) + " " + unit(a.Y) + "L" + unit(b.X) + " " + unit(b.Y) + head(a, b)})
}

// variantNames writes a puzzle's variants' short names for a list or a
// measure: "killer, thermo" ("" for a classic puzzle).
func variantNames(p record.Puzzle) string { return strings.Join(p.Variant.List(), ", ") }

// shareFields are the puzzle page's share link and puzzle text, with the
// text's label: the givens for a classic puzzle; for a variant, whose
// givens alone are another puzzle, its page and its f-puzzles link (which
// every puzzle box reads).
func shareFields(v PuzzleView, vd *VariantDrawing) (link, label, text string) {
	if vd == nil {
		return ShareURL(v.Origin, v.Puzzle.Givens), "Puzzle", v.Puzzle.Givens.String()
	}
	return v.Origin + PuzzleURL(v.Puzzle.ID), "f-puzzles link", v.Puzzle.FPuzzles
}
