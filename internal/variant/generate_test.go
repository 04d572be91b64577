package variant

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

var update = flag.Bool("update", false, "rewrite testdata/puzzles.txt with the generator")

// testPuzzle is one line of testdata/puzzles.txt.
type testPuzzle struct {
	name      string
	solutions int
	nodes     int64 // the search's nodes when generated
	p         Puzzle
}

// makePuzzle makes one puzzle of the rule types ts (at most one global,
// which the solution is drawn under), unique, its givens reduced.
func makePuzzle(r *rand.Rand, ts []Type, maxNodes int64) (Puzzle, bool) {
	var base Puzzle
	for _, t := range ts {
		switch {
		case t == Jigsaw:
			base.Rules = append(base.Rules, Rule{Type: Jigsaw, Regions: randomRegions(r)})
		case t.global() && t != KropkiNegative && t != XVNegative:
			base.Rules = append(base.Rules, Rule{Type: t})
		}
	}
	s, ok := randomFill(r, base)
	if !ok {
		return Puzzle{}, false
	}
	p := Puzzle{Givens: s, Rules: base.Rules}
	for _, t := range ts {
		switch t {
		case KropkiNegative:
			p.Rules = append(p.Rules, Rule{Type: t})
			p.Rules = append(p.Rules, dots(White, true)(r, s)...)
			p.Rules = append(p.Rules, dots(Black, true)(r, s)...)
		case XVNegative:
			p.Rules = append(p.Rules, Rule{Type: t})
			p.Rules = append(p.Rules, dots(X, true)(r, s)...)
			p.Rules = append(p.Rules, dots(V, true)(r, s)...)
		default:
			if b := builders[t]; b != nil {
				p.Rules = append(p.Rules, b(r, s)...)
			}
		}
	}
	if err := p.Validate(); err != nil {
		panic(fmt.Sprintf("generator made an invalid puzzle: %v", err))
	}
	return reduce(r, p, maxNodes), true
}

// ambiguous makes a unique puzzle ambiguous: the first given (in cell
// order) whose removal leaves two solutions found within testBudget nodes
// goes; failing that, givens go in cell order until there are two
// solutions, then rules from the end.
func ambiguous(p Puzzle) Puzzle {
	p.Rules = slices.Clone(p.Rules)
	twice := func(budget int64) bool {
		res, err := Solve(p, sudoku.Options{MaxNodes: budget})
		return err == nil && res.Solutions == 2
	}
	for c := range 81 {
		if d := p.Givens[c]; d != 0 {
			p.Givens[c] = 0
			if twice(testBudget) {
				return p
			}
			p.Givens[c] = d
		}
	}
	for c := range 81 {
		if p.Givens[c] != 0 {
			p.Givens[c] = 0
			if twice(0) {
				return p
			}
		}
	}
	for len(p.Rules) > 1 && !twice(0) {
		p.Rules = p.Rules[:len(p.Rules)-1]
	}
	return p
}

// testBudget is the generator's node budget for the test sets (see reduce).
const testBudget = 2000

// generateAll makes the test sets: for every rule type two unique puzzles
// and an ambiguous one, killers without givens, mixes, and X-Sudoku.
func generateAll(maxNodes int64) []testPuzzle {
	r := rand.New(rand.NewPCG(47, 2026))
	var out []testPuzzle
	add := func(name string, p Puzzle) {
		t0 := time.Now()
		res, err := Solve(p, sudoku.Options{})
		if testing.Verbose() {
			fmt.Fprintln(os.Stderr, name, res, err, time.Since(t0))
		}
		if err != nil {
			panic(err)
		}
		out = append(out, testPuzzle{name, res.Solutions, res.Nodes, Normal(p)})
	}
	for _, t := range Types {
		for k := range 2 {
			p, ok := makePuzzle(r, []Type{t}, maxNodes)
			if !ok {
				panic("no solution for " + t)
			}
			add(fmt.Sprintf("%s-%d", t, k+1), p)
			if k == 0 {
				add(fmt.Sprintf("%s-ambiguous", t), ambiguous(p))
			}
		}
	}
	for k := 0; k < 4; {
		s, _ := randomFill(r, Puzzle{})
		if rules, ok := killersAlone(r, s, max(maxNodes, testBudget)); ok {
			add(fmt.Sprintf("killer-nogivens-%d", k+1), Puzzle{Rules: rules})
			k++
		}
	}
	for k := range 12 {
		var ts []Type
		for len(ts) < 2+k%2 {
			t := Types[r.IntN(len(Types))]
			if !t.global() || !hasGlobal(ts) {
				ts = append(ts, t)
			}
		}
		if p, ok := makePuzzle(r, ts, maxNodes); ok {
			add(fmt.Sprintf("mix-%d", k+1), p)
		}
	}
	// X-Sudoku, whose group has line moves too (xMoves).
	for k := range 2 {
		if p, ok := makePuzzle(r, []Type{DiagonalPlus, DiagonalMinus}, maxNodes); ok {
			add(fmt.Sprintf("x-sudoku-%d", k+1), p)
			if k == 0 {
				add("x-sudoku-ambiguous", ambiguous(p))
			}
		}
	}
	return out
}

func hasGlobal(ts []Type) bool {
	for _, t := range ts {
		if t.global() {
			return true
		}
	}
	return false
}

const puzzlesFile = "testdata/puzzles.txt"

// readTestPuzzles reads testdata/puzzles.txt: name, solution count (1, or
// 2 for two or more) and the written form, tab separated.
func readTestPuzzles(t testing.TB, puzzlesFile string) []testPuzzle {
	t.Helper()
	b, err := os.ReadFile(puzzlesFile)
	if err != nil {
		t.Fatal(err)
	}
	var out []testPuzzle
	for n, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			t.Fatalf("%s:%d: want name, solutions, puzzle", puzzlesFile, n+1)
		}
		p, err := Parse([]byte(f[2]))
		if err != nil {
			t.Fatalf("%s:%d: %v", puzzlesFile, n+1, err)
		}
		var sols int
		fmt.Sscan(f[1], &sols)
		out = append(out, testPuzzle{f[0], sols, 0, p})
	}
	return out
}

// TestGenerate rewrites testdata/puzzles.txt (made within testBudget
// nodes) with -update.
func TestGenerate(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite " + puzzlesFile)
	}
	write := func(path, head string, ps []testPuzzle) {
		var b strings.Builder
		b.WriteString(head)
		for _, tp := range ps {
			fmt.Fprintf(&b, "%s\t%d\t%s\n", tp.name, tp.solutions, tp.p.Text())
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const head = "# Made by this package's generator (generate_test.go, TestGenerate -update); CC0. See README.md.\n"
	write(puzzlesFile, head, generateAll(testBudget))
}
