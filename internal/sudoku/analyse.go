package sudoku

// A setter's analysis (POST /api/analyse, /setter): how many solutions,
// which givens could go, the symmetry of the givens. The grade is the
// logic package's, the answer (record.Analysis) the archive's; the caller
// puts them together.

// Symmetries are the names SymmetryOf gives, the strongest first: a
// pattern with several is named by the first that holds.
var Symmetries = []struct {
	Name string
	Map  func(r, c int) (int, int) // where the symmetry takes cell (r, c)
}{
	{"rotational", func(r, c int) (int, int) { return c, 8 - r }}, // a quarter turn (implies central)
	{"central", func(r, c int) (int, int) { return 8 - r, 8 - c }},
	{"diagonal", func(r, c int) (int, int) { return c, r }},
	{"anti-diagonal", func(r, c int) (int, int) { return 8 - c, 8 - r }},
	{"mirror", func(r, c int) (int, int) { return r, 8 - c }},            // about the middle column
	{"mirror-horizontal", func(r, c int) (int, int) { return 8 - r, c }}, // about the middle row
}

// SymmetryOf names the symmetry of g's pattern of givens (which cells are
// given, not their digits): the first of Symmetries that maps every given
// cell to a given cell, "none" when none does (and for an empty grid).
func SymmetryOf(g Grid) string {
	if g.Clues() == 0 {
		return "none"
	}
next:
	for _, s := range Symmetries {
		for i, v := range g {
			if v == 0 {
				continue
			}
			r, c := s.Map(i/9, i%9)
			if g[r*9+c] == 0 {
				continue next
			}
		}
		return s.Name
	}
	return "none"
}

// Redundant returns the givens of g (a grid with one solution, solution)
// that can each go, alone, leaving one solution: the cells, in order. g is
// minimal when there is none. A given can go when no other digit fits its
// cell: for each digit its row, column and box allow there, a search for a
// first solution with that digit in the cell (most end at once in a
// contradiction), each within opt.
func Redundant(g, solution Grid, opt Options) ([]int, error) {
	out := []int{}
	for i, v := range g {
		if v == 0 {
			continue
		}
		h := g
		h[i] = 0
		alone := true
		for d := uint8(1); d <= 9 && alone; d++ {
			if d == solution[i] || !fits(h, i, d) {
				continue
			}
			h[i] = d
			r, err := solveFirst(h, opt, nil, false, true)
			h[i] = 0
			if err != nil {
				return nil, err
			}
			alone = r.Solutions == 0
		}
		if alone {
			out = append(out, i)
		}
	}
	return out, nil
}

// fits reports whether digit d can go in cell i of g: no peer holds it.
func fits(g Grid, i int, d uint8) bool {
	r, c := i/9, i%9
	for k := range 9 {
		if g[r*9+k] == d || g[k*9+c] == d || g[(r/3*3+k/3)*9+c/3*3+k%3] == d {
			return false
		}
	}
	return true
}
