package variant

import (
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestPuzzles solves every test puzzle: the solution count the generator
// recorded, a unique solution that keeps every rule (Check), and a
// written form that reads back to itself.
func TestPuzzles(t *testing.T) {
	seen := map[Type]map[int]bool{}
	for _, tp := range readTestPuzzles(t, puzzlesFile) {
		res, err := Solve(tp.p, sudoku.Options{})
		if err != nil || res.Solutions != tp.solutions {
			t.Errorf("%s: %d solutions, %v; want %d", tp.name, res.Solutions, err, tp.solutions)
			continue
		}
		if res.Solutions == 1 {
			if err := Check(tp.p, res.Solution); err != nil {
				t.Errorf("%s: solution %s: %v", tp.name, res.Solution, err)
			}
		}
		text := tp.p.Text()
		q, err := Parse([]byte(text))
		if err != nil || q.Text() != text || Normal(q).Text() != text {
			t.Errorf("%s: written form does not read back: %v", tp.name, err)
		}
		for _, v := range Variants(tp.p) {
			if seen[v] == nil {
				seen[v] = map[int]bool{}
			}
			seen[v][min(res.Solutions, 2)] = true
		}
	}
	for _, ty := range Types {
		if !seen[ty][1] || !seen[ty][2] {
			t.Errorf("%s: the test sets lack a unique or an ambiguous puzzle (%v)", ty, seen[ty])
		}
	}
}

// hardFile holds minimal puzzles made without the test sets' node budget.
const hardFile = "testdata/hard.txt"

// allTestPuzzles reads both test sets: testdata/puzzles.txt and hard.txt.
func allTestPuzzles(t testing.TB) []testPuzzle {
	return append(readTestPuzzles(t, puzzlesFile), readTestPuzzles(t, hardFile)...)
}

// TestHard solves the puzzles of testdata/hard.txt: each unique, its
// solution keeping every rule (a tenth of a second each at most, since
// the intersections and segment sums of engine v2).
func TestHard(t *testing.T) {
	racefree.Only(t)
	for _, tp := range readTestPuzzles(t, hardFile) {
		res, err := Solve(tp.p, sudoku.Options{})
		if err != nil || res.Solutions != 1 || Check(tp.p, res.Solution) != nil {
			t.Errorf("%s: %d solutions, %v", tp.name, res.Solutions, err)
		}
	}
}

// rewrite writes p another way that means the same: rules in another
// order, lines and dots from the other end, odd and even cells split, a
// little killer's clue at the other end of its diagonal.
func rewrite(r *rand.Rand, p Puzzle) Puzzle {
	out := Puzzle{Givens: p.Givens}
	for _, k := range r.Perm(len(p.Rules)) {
		rl := p.Rules[k]
		rl.Cells = slices.Clone(rl.Cells)
		switch rl.Type {
		case Killer, White, Black, X, V, Whispers, Renban, Palindrome:
			if r.IntN(2) == 0 {
				slices.Reverse(rl.Cells)
			}
		case LittleKiller:
			if d := diagonalCells(rl.Cells, rl.Dir); len(d) > 1 && r.IntN(2) == 0 {
				dr, dc, _ := rl.Dir.step()
				rl.Cells, rl.Dir = []Cell{d[len(d)-1]}, dirOf(-dr, -dc)
			}
		case Odd, Even:
			if len(rl.Cells) > 1 && r.IntN(2) == 0 {
				h := len(rl.Cells) / 2
				out.Rules = append(out.Rules, Rule{Type: rl.Type, Cells: rl.Cells[:h]})
				rl.Cells = rl.Cells[h:]
			}
		}
		out.Rules = append(out.Rules, rl)
	}
	return out
}

// randomMember returns a random member of p's symmetry group.
func randomMember(r *rand.Rand, p Puzzle) sudoku.Transform {
	geometry, digits := Group(p)
	t := geometry[r.IntN(len(geometry))]
	if FullGroup(p) {
		t.Transposed = r.IntN(2) == 0
		t.Rows = bandPerms[r.IntN(len(bandPerms))]
		t.Cols = bandPerms[r.IntN(len(bandPerms))]
	}
	if digits {
		for i, d := range r.Perm(9) {
			t.Digits[i+1] = uint8(d + 1)
		}
	}
	return t
}

// TestSymmetryGroup puts every test puzzle (both sets) through random
// members of its group, each written another way, and expects one canonical form, the
// same measures and a solution of the moved puzzle.
func TestSymmetryGroup(t *testing.T) {
	racefree.Only(t)
	r := rand.New(rand.NewPCG(1, 47))
	members := 4
	if testing.Short() {
		members = 2
	}
	for _, tp := range allTestPuzzles(t) {
		want, err := Rate(tp.p, sudoku.Options{Runs: 1})
		if err != nil {
			t.Fatalf("%s: %v", tp.name, err)
		}
		for range members {
			tr := randomMember(r, tp.p)
			q := rewrite(r, Apply(tr, tp.p))
			if err := q.Validate(); err != nil {
				t.Fatalf("%s moved by %v: %v", tp.name, tr, err)
			}
			got, err := Rate(q, sudoku.Options{Runs: 1})
			if err != nil {
				t.Fatalf("%s moved: %v", tp.name, err)
			}
			if got.Text != want.Text {
				t.Errorf("%s moved by %v:\ncanonical %s\nwant      %s", tp.name, tr, got.Text, want.Text)
			}
			if got.Solutions != want.Solutions || got.Backtracks != want.Backtracks || got.Guesses != want.Guesses || got.Nodes != want.Nodes {
				t.Errorf("%s moved: measures %+v, want %+v", tp.name, got, want)
			}
			if got.Solutions == 1 {
				if err := Check(q, got.Solution); err != nil {
					t.Errorf("%s moved: solution: %v", tp.name, err)
				}
			}
		}
	}
}

// TestRateClassic: a classic puzzle's measures are package sudoku's.
func TestRateClassic(t *testing.T) {
	g := classicLines(t, "top1465_first20.txt")[3]
	got, err := Rate(Puzzle{Givens: g}, sudoku.Options{})
	want, _ := sudoku.Rate(g, sudoku.Options{})
	if err != nil || got.Canonical.Givens != want.Canonical || got.Nodes != want.Nodes ||
		got.Backtracks != want.Backtracks || got.Solution != want.Solution || got.EngineVersion != want.EngineVersion {
		t.Fatalf("got %+v %v, want %+v", got, err, want)
	}
}

// TestLineMoves: every move of a fixed shape's group maps the shape's
// groups onto the moved rule's (a diagonal onto a diagonal, the windows and
// the groups they imply onto themselves), and the groups have the sizes
// docs/variants.md gives.
func TestLineMoves(t *testing.T) {
	sizes := map[string]int{}
	for _, ts := range [][]Type{{DiagonalMinus}, {DiagonalPlus}, {DiagonalPlus, DiagonalMinus}, {Windoku},
		{Disjoint}, {CentreDot}, {Disjoint, CentreDot}, {Windoku, DiagonalMinus}, {Asterisk}, {AntiKnight}} {
		var p Puzzle
		for _, ty := range ts {
			p.Rules = append(p.Rules, Rule{Type: ty})
		}
		group, _ := Group(p)
		if group[0] != sudoku.Identity {
			t.Errorf("%v: first move %v", ts, group[0])
		}
		sizes[fmt.Sprint(ts)] = len(group)
		want := houseKeys(p, sudoku.Identity)
		for _, tr := range group {
			if !tr.Valid() {
				t.Fatalf("%v: %v is not a transform", ts, tr)
			}
			q := Apply(tr, p)
			if err := q.Validate(); err != nil {
				t.Fatalf("%v moved by %v: %v", ts, tr, err)
			}
			if got := houseKeys(q, sudoku.Identity); !slices.Equal(got, houseKeys(p, tr)) || len(got) != len(want) {
				t.Fatalf("%v: %v moves the shapes off themselves", ts, tr)
			}
		}
	}
	for k, n := range map[string]int{"[diagonal+ diagonal-]": 96, "[windoku]": 128, "[antiknight]": 8, "[asterisk]": 8,
		"[disjoint]": 2592, "[centredot]": 4608, "[diagonal-]": 5184} {
		if sizes[k] != n {
			t.Errorf("%s: a group of %d moves, want %d", k, sizes[k], n)
		}
	}
}

// houseKeys lists the fixed shapes' groups of p's rules, each moved by tr,
// as sorted keys.
func houseKeys(p Puzzle, tr sudoku.Transform) []string {
	var out []string
	for _, r := range p.Rules {
		for _, g := range shapeGroups(r.Type) {
			var cells []Cell
			for _, c := range g {
				cells = append(cells, Cell(tr.Cell(int(c))))
			}
			out = append(out, fmt.Sprint(sortedCells(cells)))
		}
	}
	slices.Sort(out)
	return out
}

func sortedCells(c []Cell) []Cell {
	c = slices.Clone(c)
	slices.Sort(c)
	return c
}

// TestSolveConcurrently: the package's tables are shared by every search,
// each search's model its own; four goroutines solving the test puzzles at
// once get what one gets alone (the race detector watches this one; the
// long single-goroutine sweeps run without it, internal/racefree).
func TestSolveConcurrently(t *testing.T) {
	tps := readTestPuzzles(t, puzzlesFile)
	want := make([]sudoku.Result, len(tps))
	for i, tp := range tps {
		want[i], _ = Solve(tp.p, sudoku.Options{})
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range tps {
				j := (i + g*len(tps)/4) % len(tps)
				got, err := Solve(tps[j].p, sudoku.Options{})
				if err != nil || got.Solutions != want[j].Solutions || got.Solution != want[j].Solution {
					t.Errorf("%s beside others: %d solutions, %v; alone %d", tps[j].name, got.Solutions, err, want[j].Solutions)
				}
			}
		})
	}
	wg.Wait()
}

// TestCanonicalWithoutGivens: a killer without givens beside a diagonal
// ties every one of its group's 5,184 moves on the givens, and the cell
// signatures (leastSignatures) still give one canonical form.
func TestCanonicalWithoutGivens(t *testing.T) {
	var p Puzzle
	for _, tp := range readTestPuzzles(t, puzzlesFile) {
		if tp.name == "killer-nogivens-1" {
			p = tp.p
		}
	}
	p.Rules = append(slices.Clone(p.Rules), Rule{Type: DiagonalMinus})
	want, _, err := Canonical(p, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 47))
	for range 3 {
		tr := randomMember(r, p)
		got, _, err := Canonical(rewrite(r, Apply(tr, p)), sudoku.Options{})
		if err != nil || got.Text() != want.Text() {
			t.Errorf("moved by %v: %v\ncanonical %s\nwant      %s", tr, err, got.Text(), want.Text())
		}
	}
}
