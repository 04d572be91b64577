package variant

import (
	"math/rand/v2"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// builders read rules of one type off a solution s: rules s keeps.
var builders = map[Type]func(r *rand.Rand, s sudoku.Grid) []Rule{
	Killer:       killers,
	LittleKiller: littleKillers,
	Sandwich:     sandwiches,
	Thermo: func(r *rand.Rand, s sudoku.Grid) []Rule {
		return lines(r, s, Thermo, 8, 3, 7, func(l []Cell, c Cell) bool { return s[c] > s[l[len(l)-1]] })
	},
	Whispers: func(r *rand.Rand, s sudoku.Grid) []Rule {
		return lines(r, s, Whispers, 6, 3, 7, func(l []Cell, c Cell) bool { return abs(int(s[c])-int(s[l[len(l)-1]])) >= 5 })
	},
	Renban: func(r *rand.Rand, s sudoku.Grid) []Rule {
		return lines(r, s, Renban, 6, 2, 5, func(l []Cell, c Cell) bool {
			lo, hi := s[c], s[c]
			for _, x := range l {
				if s[x] == s[c] {
					return false
				}
				lo, hi = min(lo, s[x]), max(hi, s[x])
			}
			return int(hi-lo) <= len(l) // a run the line's length may still be
		})
	},
	Palindrome:  palindromes,
	Arrow:       arrows,
	White:       dots(White, false),
	Black:       dots(Black, false),
	X:           dots(X, false),
	V:           dots(V, false),
	Odd:         parity(Odd),
	Even:        parity(Even),
	ExtraRegion: extraRegions,
}

// extraRegions draws two extra regions: for each digit, a random cell of
// s holding it (the two may share cells).
func extraRegions(r *rand.Rand, s sudoku.Grid) []Rule {
	var out []Rule
	for range 2 {
		var cells []Cell
		for d := uint8(1); d <= 9; d++ {
			var at []Cell
			for c := range Cell(81) {
				if s[c] == d {
					at = append(at, c)
				}
			}
			cells = append(cells, at[r.IntN(len(at))])
		}
		out = append(out, Rule{Type: ExtraRegion, Cells: cells})
	}
	return out
}

// killers covers the grid with cages of one to five cells, each with its
// total.
func killers(r *rand.Rand, s sudoku.Grid) []Rule {
	var in [81]bool
	var out []Rule
	for _, start := range r.Perm(81) {
		if in[start] {
			continue
		}
		cage := []Cell{Cell(start)}
		in[start] = true
		for size := 2 + r.IntN(4); len(cage) < size; {
			var next []Cell
			for _, c := range cage {
				for _, n := range moveCells(c, kingMoves[4:]) {
					if !in[n] && !slices.ContainsFunc(cage, func(x Cell) bool { return s[x] == s[n] }) {
						next = append(next, n)
					}
				}
			}
			if len(next) == 0 {
				break
			}
			n := next[r.IntN(len(next))]
			in[n] = true
			cage = append(cage, n)
		}
		out = append(out, Rule{Type: Killer, Cells: cage, Total: intp(digitSum(s, cage))})
	}
	return mergeSingles(s, out)
}

// mergeSingles joins each one-cell cage to a neighbouring cage that lacks
// its digit, where there is one: a one-cell cage is a given in disguise.
func mergeSingles(s sudoku.Grid, cages []Rule) []Rule {
	var out []Rule
	for i, rl := range cages {
		if len(rl.Cells) != 1 {
			continue
		}
		c := rl.Cells[0]
		for j := range cages {
			o := &cages[j]
			if j != i && len(o.Cells) >= 1 && len(o.Cells) < 6 &&
				slices.ContainsFunc(o.Cells, func(x Cell) bool { return adjacent(x, c) }) &&
				!slices.ContainsFunc(o.Cells, func(x Cell) bool { return s[x] == s[c] }) {
				o.Cells = append(o.Cells, c)
				*o.Total += int(s[c])
				cages[i].Cells = nil
				break
			}
		}
	}
	for _, rl := range cages {
		if len(rl.Cells) > 0 {
			out = append(out, rl)
		}
	}
	return out
}

// littleKillerStarts lists every clue a little killer can have: a first
// cell at the edge and a step into the grid.
var littleKillerStarts = func() (out []Rule) {
	for c := range Cell(81) {
		for _, d := range []Dir{"dr", "dl", "ur", "ul"} {
			rl := Rule{Type: LittleKiller, Cells: []Cell{c}, Dir: d, Total: intp(0)}
			if n := len(diagonalCells(rl.Cells, d)); n >= 2 {
				*rl.Total = n
				if validLittleKiller(0, rl) == nil {
					out = append(out, rl)
				}
			}
		}
	}
	return out
}()

func littleKillers(r *rand.Rand, s sudoku.Grid) []Rule {
	var out []Rule
	for _, k := range r.Perm(len(littleKillerStarts))[:10] {
		rl := littleKillerStarts[k]
		rl.Total = intp(digitSum(s, diagonalCells(rl.Cells, rl.Dir)))
		out = append(out, rl)
	}
	return out
}

func sandwiches(r *rand.Rand, s sudoku.Grid) []Rule {
	var out []Rule
	for _, k := range r.Perm(18)[:12] {
		line := string(rune('r'+k/9*('c'-'r'))) + string(rune('1'+k%9))
		rl := Rule{Type: Sandwich, Line: line}
		checkSandwichTotal(&rl, s)
		out = append(out, rl)
	}
	return out
}

// checkSandwichTotal sets a sandwich's total from s.
func checkSandwichTotal(rl *Rule, s sudoku.Grid) {
	rl.Total = intp(0)
	for t := range 36 {
		*rl.Total = t
		if checkSandwich(*rl, s) {
			return
		}
	}
}

// lines draws count lines of lo to hi cells that ok accepts, dropping
// those that overlap one drawn before.
func lines(r *rand.Rand, s sudoku.Grid, t Type, count, lo, hi int, ok func([]Cell, Cell) bool) []Rule {
	var out []Rule
	var used [81]bool
	for try := 0; len(out) < count && try < 2000; try++ {
		l := walk(r, lo+r.IntN(hi-lo+1), false, func(l []Cell, c Cell) bool { return !used[c] && ok(l, c) })
		if l == nil || (t == Renban && !checkRule(Rule{Type: Renban, Cells: l}, s)) {
			continue
		}
		for _, c := range l {
			used[c] = true
		}
		out = append(out, Rule{Type: t, Cells: l})
	}
	return out
}

func palindromes(r *rand.Rand, s sudoku.Grid) []Rule {
	var out []Rule
	for try := 0; len(out) < 5 && try < 5000; try++ {
		n := 2 + r.IntN(4)
		l := walk(r, n, false, func([]Cell, Cell) bool { return true })
		if l == nil {
			continue
		}
		pal := true
		for k := range l {
			pal = pal && s[l[k]] == s[l[len(l)-1-k]]
		}
		if pal {
			out = append(out, Rule{Type: Palindrome, Cells: l})
		}
	}
	return out
}

func arrows(r *rand.Rand, s sudoku.Grid) []Rule {
	var out []Rule
	for try := 0; len(out) < 6 && try < 5000; try++ {
		circle := 1 + boolInt(r.IntN(4) == 0)
		head := walk(r, circle, true, func([]Cell, Cell) bool { return true })
		if head == nil {
			continue
		}
		want := int(s[head[0]])
		if circle == 2 {
			want = 10*want + int(s[head[1]])
		}
		cells := slices.Clone(head)
		got := 0
		for got < want {
			var next []Cell
			for _, c := range moveCells(cells[len(cells)-1], kingMoves) {
				if !slices.Contains(cells, c) && got+int(s[c]) <= want {
					next = append(next, c)
				}
			}
			if len(next) == 0 || len(cells)-circle >= 9 {
				break
			}
			c := next[r.IntN(len(next))]
			cells = append(cells, c)
			got += int(s[c])
		}
		rl := Rule{Type: Arrow, Circle: circle, Cells: cells}
		if got == want && validArrow(0, rl) == nil {
			out = append(out, rl)
		}
	}
	return out
}

// dots marks half the pairs s keeps the relation of, or all of them (for
// the negative rules).
func dots(t Type, every bool) func(*rand.Rand, sudoku.Grid) []Rule {
	return func(r *rand.Rand, s sudoku.Grid) []Rule {
		var out []Rule
		for _, pr := range orthogonalPairs {
			rl := Rule{Type: t, Cells: []Cell{pr[0], pr[1]}}
			if checkRule(rl, s) && (every || r.IntN(2) == 0) {
				out = append(out, rl)
			}
		}
		return out
	}
}

func parity(t Type) func(*rand.Rand, sudoku.Grid) []Rule {
	return func(r *rand.Rand, s sudoku.Grid) []Rule {
		var cells []Cell
		for _, c := range r.Perm(81)[:30] {
			if (s[c]%2 == 1) == (t == Odd) {
				cells = append(cells, Cell(c))
			}
		}
		return []Rule{{Type: t, Cells: cells}}
	}
}

// killersAlone covers s with cages of two to five cells and splits cages
// in two (parts joined by sides; of two cells or more while cages of four
// or more are left) until the cages alone, without a given, have one
// solution within maxNodes. False when no split is left.
func killersAlone(r *rand.Rand, s sudoku.Grid, maxNodes int64) ([]Rule, bool) {
	rules := killers(r, s)
	for range 200 {
		res, err := Solve(Puzzle{Rules: rules}, sudoku.Options{MaxNodes: maxNodes})
		if err == nil && res.Solutions == 1 {
			return rules, true
		}
		var big []int
		for size := 4; size >= 2 && len(big) == 0; size-- {
			for i, rl := range rules {
				if len(rl.Cells) >= size {
					big = append(big, i)
				}
			}
		}
		if len(big) == 0 {
			return nil, false
		}
		i := big[r.IntN(len(big))]
		if a, b, ok := splitCage(r, rules[i].Cells); ok {
			rules[i] = Rule{Type: Killer, Cells: a, Total: intp(digitSum(s, a))}
			rules = append(rules, Rule{Type: Killer, Cells: b, Total: intp(digitSum(s, b))})
		}
	}
	return nil, false
}

// splitCage parts a cage in two connected parts, of two cells or more
// when it has four.
func splitCage(r *rand.Rand, cells []Cell) (a, b []Cell, ok bool) {
	connected := func(part []Cell) bool {
		seen := []Cell{part[0]}
		for k := 0; k < len(seen); k++ {
			for _, c := range part {
				if !slices.Contains(seen, c) && adjacent(c, seen[k]) {
					seen = append(seen, c)
				}
			}
		}
		return len(seen) == len(part)
	}
	least := 1
	if len(cells) >= 4 {
		least = 2
	}
	for range 20 {
		k := least + r.IntN(len(cells)-2*least+1)
		a = []Cell{cells[r.IntN(len(cells))]}
		for len(a) < k {
			var next []Cell
			for _, c := range cells {
				if !slices.Contains(a, c) && slices.ContainsFunc(a, func(x Cell) bool { return adjacent(x, c) }) {
					next = append(next, c)
				}
			}
			if len(next) == 0 {
				break
			}
			a = append(a, next[r.IntN(len(next))])
		}
		b = b[:0]
		for _, c := range cells {
			if !slices.Contains(a, c) {
				b = append(b, c)
			}
		}
		if len(a) == k && len(b) >= least && connected(b) {
			return a, slices.Clone(b), true
		}
	}
	return nil, nil, false
}
