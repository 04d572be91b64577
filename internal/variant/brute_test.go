package variant

import (
	"fmt"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"math/rand/v2"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// naiveCount counts the completions of p's givens that Check accepts, up
// to limit: every digit in every empty cell, pruned only by rows and
// columns, each full grid judged by check (Check without Validate).
// Independent of the solver's model and propagators.
func naiveCount(p Puzzle, limit int) (int, sudoku.Grid) {
	g := p.Givens
	var blanks []int
	for c := range 81 {
		if g[c] == 0 {
			blanks = append(blanks, c)
		}
	}
	count, first := 0, sudoku.Grid{}
	var rec func(k int)
	rec = func(k int) {
		if count >= limit {
			return
		}
		if k == len(blanks) {
			if check(p, g) == nil {
				if count == 0 {
					first = g
				}
				count++
			}
			return
		}
		c := blanks[k]
		for d := uint8(1); d <= 9; d++ {
			ok := true
			for j := range 9 {
				if g[c/9*9+j] == d || g[j*9+c%9] == d {
					ok = false
					break
				}
			}
			if ok {
				g[c] = d
				rec(k + 1)
				g[c] = 0
			}
		}
	}
	rec(0)
	return count, first
}

// randomSmall makes a small random rule set on a nearly full grid: a
// solution of a random global rule (or none), one to three rule types
// read off it, a few of their rules, one total sometimes moved by one (so
// some sets have no solution), and 8 to 18 empty cells, half the time
// with four that could swap.
func randomSmall(r *rand.Rand) Puzzle {
	var p Puzzle
	globals := []Type{"", DiagonalPlus, Windoku, Disjoint, AntiKnight, AntiKing, NonConsecutive, Jigsaw, Girandola}
	switch g := globals[r.IntN(len(globals))]; g {
	case "":
	case Jigsaw:
		p.Rules = append(p.Rules, Rule{Type: Jigsaw, Regions: randomRegions(r)})
	default:
		p.Rules = append(p.Rules, Rule{Type: g})
	}
	s, ok := randomFill(r, p)
	if !ok {
		return Puzzle{}
	}
	var cellTypes []Type
	for _, t := range Types {
		if builders[t] != nil {
			cellTypes = append(cellTypes, t)
		}
	}
	for range 1 + r.IntN(3) {
		rules := builders[cellTypes[r.IntN(len(cellTypes))]](r, s)
		for _, k := range r.Perm(len(rules))[:min(len(rules), 1+r.IntN(4))] {
			p.Rules = append(p.Rules, rules[k])
		}
	}
	if r.IntN(3) == 0 {
		for i := range p.Rules {
			if p.Rules[i].Total != nil {
				p.Rules[i].Total = intp(*p.Rules[i].Total + 1 - 2*r.IntN(2))
				break
			}
		}
	}
	p.Givens = s
	for _, c := range r.Perm(81)[:8+r.IntN(11)] {
		p.Givens[c] = 0
	}
	if r.IntN(2) == 0 {
		for _, c := range swappable(r, s) {
			p.Givens[c] = 0
		}
	}
	return p
}

// swappable returns four cells of s at the corners of a rectangle in two
// boxes holding a, b / b, a (the digits can swap: without rules that tell
// them apart, two solutions), or nil.
func swappable(r *rand.Rand, s sudoku.Grid) []int {
	for range 200 {
		r1, c1, c2 := r.IntN(9), r.IntN(9), r.IntN(9)
		r2 := r1/3*3 + r.IntN(3)
		if r2 == r1 || c1/3 == c2/3 {
			continue
		}
		if s[r1*9+c1] == s[r2*9+c2] && s[r1*9+c2] == s[r2*9+c1] {
			return []int{r1*9 + c1, r1*9 + c2, r2*9 + c1, r2*9 + c2}
		}
	}
	return nil
}

// TestBruteForce cross-checks the solver with naiveCount on small random
// rule sets: the same count (to two) and, when unique, the same solution.
func TestBruteForce(t *testing.T) {
	racefree.Only(t)
	r := rand.New(rand.NewPCG(47, 1))
	n := 300
	if testing.Short() {
		n = 40
	}
	counts := map[int]int{}
	covered := func() bool { return counts[0] > 0 && counts[1] > 0 && counts[2] > 0 }
	// At least n sets, more (up to 4n) until each count has come up: the
	// sets follow the solver's propagation (randomFill), so a stronger
	// one deals others.
	for i := 0; i < n || !covered() && i < 4*n; i++ {
		p := randomSmall(r)
		if len(p.Rules) == 0 || p.Validate() != nil {
			i--
			continue
		}
		want, sol := naiveCount(p, 2)
		got, err := Solve(p, sudoku.Options{})
		if err != nil || got.Solutions != want || (want == 1 && got.Solution != sol) {
			t.Fatalf("%s\nsolver %d solutions (%v), naive %d", p.Text(), got.Solutions, err, want)
		}
		counts[want]++
	}
	if !covered() {
		t.Errorf("the random sets do not cover 0, 1 and 2 solutions: %v", counts)
	}
	t.Log(fmt.Sprint("solution counts: ", counts))
}
