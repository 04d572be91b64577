package logic

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// ErrNotGraded: the puzzle has rules the solver cannot reason with yet
// (killer cages, thermometers, dots, ...): it has no grade rather than a
// wrong one. The error GradeVariant returns wraps it and names the rules.
var ErrNotGraded = errors.New("logic: variant rules not graded yet")

// GradeVariant grades a variant puzzle as Solve grades a classic one: the
// path of easiest steps over the puzzle's houses and peers. A classic
// puzzle (no rules) is Solve's. The rules it reasons with are the
// fixed-shape ones (diagonals, windoku, disjoint groups, asterisk, centre
// dot, girandola, anti-knight, anti-king) and jigsaw; for any other it
// fails with an error wrapping ErrNotGraded. It fails as variant.Solve
// does for a puzzle that breaks its rules, and with ErrNoSolution or
// ErrMultipleSolutions.
//
// Which rungs run depends on the geometry (geoNeed): every rung on a
// puzzle whose houses are the classic ones; no uniqueness with extra
// houses, extra peers or a jigsaw; and on a jigsaw, none of the rungs
// still written over the classic tables (the strong links and the
// chains), whose place the grade then floors (Result.Floor) when the path
// needs them.
func GradeVariant(p variant.Puzzle, opt Options) (Result, error) {
	if p.Classic() {
		return Solve(p.Givens, opt)
	}
	geo, err := variantGeometry(p)
	if err != nil {
		return Result{}, err
	}
	res, err := variant.Solve(p, sudoku.Options{})
	if err != nil {
		return Result{}, fmt.Errorf("logic: %w", err)
	}
	switch res.Solutions {
	case 0:
		return Result{}, ErrNoSolution
	case 2:
		return Result{}, ErrMultipleSolutions
	}
	r := solveFrom(newBoardOn(geo, p.Givens), opt)
	if !geo.boxes {
		// Houses 18-26 are the jigsaw's regions: say so in the sentences.
		for i := range r.Steps {
			r.Steps[i].Text = strings.ReplaceAll(r.Steps[i].Text, "box ", "region ")
		}
	}
	return r, nil
}

// variantGeometry builds the houses and peers of p's rules; rules it has
// none for make an error wrapping ErrNotGraded.
func variantGeometry(p variant.Puzzle) (*geometry, error) {
	primary := unitCells
	extras := map[int][9]int{}
	var near [81][]int
	var missing []string
	for _, r := range p.Rules {
		switch r.Type {
		case variant.Jigsaw:
			n := [9]int{}
			for c := range 81 {
				k := int(r.Regions[c] - '1')
				primary[18+k][n[k]] = c
				n[k]++
			}
		case variant.DiagonalMinus:
			extras[houseDiagMinus] = nineOf(variant.DrawnRegions(r.Type)[0])
		case variant.DiagonalPlus:
			extras[houseDiagPlus] = nineOf(variant.DrawnRegions(r.Type)[0])
		case variant.Asterisk:
			extras[houseAsterisk] = nineOf(variant.DrawnRegions(r.Type)[0])
		case variant.CentreDot:
			extras[houseCentreDot] = nineOf(variant.DrawnRegions(r.Type)[0])
		case variant.Girandola:
			extras[houseGirandola] = nineOf(variant.DrawnRegions(r.Type)[0])
		case variant.Windoku:
			for k, g := range windowGroups() {
				extras[houseWindow+k] = g
			}
		case variant.Disjoint:
			for c := range 81 {
				k := c/9%3*3 + c%9%3
				g := extras[houseDisjoint+k]
				g[c/27*3+c%9/3] = c
				extras[houseDisjoint+k] = g
			}
		case variant.AntiKnight, variant.AntiKing:
			moves := knightMoves
			if r.Type == variant.AntiKing {
				moves = kingMoves
			}
			for c := range 81 {
				for _, m := range moves {
					if rr, cc := c/9+m[0], c%9+m[1]; rr >= 0 && rr < 9 && cc >= 0 && cc < 9 {
						near[c] = append(near[c], rr*9+cc)
					}
				}
			}
		default:
			missing = append(missing, string(r.Type))
		}
	}
	if missing != nil {
		return nil, fmt.Errorf("%w: %s", ErrNotGraded, strings.Join(missing, ", "))
	}
	return newGeometry(primary, extras, near), nil
}

// The anti-chess rules' moves.
var (
	knightMoves = [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
	kingMoves   = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// nineOf is a region's nine cells as the solver's ints.
func nineOf(cells []variant.Cell) [9]int {
	var out [9]int
	for i, c := range cells {
		out[i] = int(c)
	}
	return out
}

// windowGroups lists windoku's nine groups (variant.Groups: the four
// windows and the five groups they imply), group k of digit k of Sukaku
// Explainer's regionsWindows.
func windowGroups() [9][9]int {
	var out [9][9]int
	for k, g := range variant.Groups(variant.Windoku) {
		out[k] = nineOf(g)
	}
	return out
}
