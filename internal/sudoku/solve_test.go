package sudoku

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// readPuzzles reads a file of one puzzle per line.
func readPuzzles(t testing.TB, path string) []Grid {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gs []Grid
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if line := strings.TrimSpace(sc.Text()); line == "" || line[0] == '#' {
			continue
		}
		g, err := ParseLine(sc.Text())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		gs = append(gs, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return gs
}

// checkSolution fails t unless sol is a full valid grid that keeps g's givens.
func checkSolution(t testing.TB, g, sol Grid) {
	t.Helper()
	for c := range g {
		if g[c] != 0 && g[c] != sol[c] {
			t.Fatalf("%s: solution %s changes given %d", g, sol, c)
		}
	}
	for u := Row; u <= Box; u++ {
		for k := range 9 {
			var seen uint16
			for j := range 9 {
				v := sol[unitCell(u, k, j)]
				if v < 1 || v > 9 {
					t.Fatalf("%s: solution %s has %d in a cell", g, sol, v)
				}
				seen |= 1 << v
			}
			if seen != 0x3FE {
				t.Fatalf("%s: solution %s: %s %d is not a permutation", g, sol, u, k+1)
			}
		}
	}
}

// TestSolveCollections solves every puzzle of every collection: one unique
// solution, counts that agree. Each collection is one goroutine's loop
// through a pure engine, ten times slower under -race and racing nothing:
// make test runs it in its second pass (internal/racefree), and
// TestSolveSharedPools solves side by side under -race.
func TestSolveCollections(t *testing.T) {
	racefree.Only(t)
	for _, name := range puzzletest.Collections {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := 0
			if testing.Short() {
				n = 2000 // make test runs them all
			}
			gs := parseAll(t, puzzletest.Lines(t, name, n))
			for _, g := range gs {
				r, err := Solve(g, Options{})
				if err != nil {
					t.Fatalf("%s: %v", g, err)
				}
				if r.Solutions != 1 {
					t.Fatalf("%s: %d solutions, want 1", g, r.Solutions)
				}
				checkSolution(t, g, r.Solution)
				if r.Nodes != 1+r.Backtracks || (r.Guesses == 0) != (r.Backtracks == 0) {
					t.Fatalf("%s: inconsistent counts %+v", g, r)
				}
			}
			t.Logf("%d puzzles, all unique", len(gs))
		})
	}
}

// TestSolveSharedPools solves puzzles of every collection from several
// goroutines at once, as the server's requests and the import's workers
// do: the engine's pooled stacks pass between them (sync.Pool), and each
// result must be the one a lone solve gives.
func TestSolveSharedPools(t *testing.T) {
	var gs []Grid
	for _, name := range puzzletest.Collections {
		gs = append(gs, parseAll(t, puzzletest.Lines(t, name, 8))...)
	}
	want := make([]Result, len(gs))
	for i, g := range gs {
		r, err := Solve(g, Options{})
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		want[i] = r
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for k := range gs {
				i := (k + w*len(gs)/4) % len(gs) // each worker starts elsewhere
				r, err := Solve(gs[i], Options{})
				if err != nil || r != want[i] {
					t.Errorf("worker %d, %s: %v, %+v; alone %+v", w, gs[i], err, r, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

// deadly returns sol with a deadly-pattern rectangle blanked: four cells in
// two rows, two columns and two boxes holding a b / b a, which can swap.
func deadly(t *testing.T, sol Grid) Grid {
	for r1 := range 9 {
		for r2 := r1 + 1; r2 < 9; r2++ {
			for c1 := range 9 {
				for c2 := c1 + 1; c2 < 9; c2++ {
					twoBoxes := (r1/3 == r2/3) != (c1/3 == c2/3)
					a, b := sol[r1*9+c1], sol[r1*9+c2]
					if twoBoxes && sol[r2*9+c1] == b && sol[r2*9+c2] == a {
						g := sol
						g[r1*9+c1], g[r1*9+c2], g[r2*9+c1], g[r2*9+c2] = 0, 0, 0, 0
						return g
					}
				}
			}
		}
	}
	t.Fatal("no deadly rectangle in", sol)
	return Grid{}
}

// noSolutionDeep has no solution, but singles find no contradiction at the
// root: a top1465 puzzle (the second) with one extra given, 5 in cell 35,
// a candidate there that is not the solution's digit. 85 branch points.
const noSolutionDeep = "45..3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

// hostile has no solution and needs 819,707 nodes to prove it: the worst of
// 200,000 random sparse grids.
const hostile = ".5...6.98.....2.17................3...........24..............6........531...9..."

func TestSolutionCounts(t *testing.T) {
	sol := mustParse(t, easySol)
	seventeen := mustParse(t, "...8.1..........435............7.8........1...2..3....6......75..34........2..6..") // a 17-clue puzzle
	sixteen := seventeen
	sixteen[3] = 0
	if sixteen.Clues() != 16 {
		t.Fatal("not 16 clues")
	}
	noRoot := mustParse(t, "12345678.........9"+strings.Repeat(".", 63)) // cell 8 needs 9, which column 9 already has
	tests := []struct {
		name    string
		g       Grid
		want    int
		guesses bool // the answer needs search
	}{
		{"17 clues, unique", seventeen, 1, true},
		{"16 clues", sixteen, 2, true},
		{"empty grid", Grid{}, 2, true},
		{"deadly rectangle", deadly(t, sol), 2, true},
		{"solved grid", sol, 1, false},
		{"easy", mustParse(t, easy), 1, false},
		{"contradiction at the root", noRoot, 0, false},
		{"contradiction only after search", mustParse(t, noSolutionDeep), 0, true},
		{"hostile", mustParse(t, hostile), 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Solve(tc.g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Solutions != tc.want {
				t.Fatalf("%d solutions, want %d", r.Solutions, tc.want)
			}
			if (r.Guesses > 0) != tc.guesses {
				t.Errorf("guesses %d, want search %v", r.Guesses, tc.guesses)
			}
			if r.Solutions > 0 {
				checkSolution(t, tc.g, r.Solution)
			} else if r.Solution != (Grid{}) {
				t.Errorf("solution %s with no solutions", r.Solution)
			}
			if tc.name == "hostile" {
				return // 0.4 s a run; Rate runs it three times more
			}
			_, err = Rate(tc.g, Options{})
			if tc.want == 0 && !errors.Is(err, ErrNoSolution) {
				t.Errorf("Rate error %v, want ErrNoSolution", err)
			}
		})
	}
	// The root of noSolutionDeep passes propagation.
	bd := newBoard(mustParse(t, noSolutionDeep))
	s := solver{dirty: 1<<9 - 1}
	if !s.propagate(&bd) {
		t.Error("noSolutionDeep: contradiction visible at the root")
	}
}

// TestWorkedExample is the example of the package documentation.
func TestWorkedExample(t *testing.T) {
	g := mustParse(t, ".43.8.25.6.............1.949....4.7....6.8....1.2....382.5.............5.34.9.71.")
	r, err := Solve(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Solution: mustParse(t, "143986257679425381285731694962354178357618942418279563821567439796143825534892716"),
		Solutions: 1, Guesses: 1, Backtracks: 2, Nodes: 3}
	if r != want {
		t.Fatalf("Solve = %+v, want %+v", r, want)
	}
	// The search itself, traced on the grid as written (Trace traces the
	// recorded presentation instead: see TestTrace).
	tr := &tracer{max: DefaultMaxSteps}
	if _, err := solve(g, Options{}, tr, false); err != nil || tr.truncated {
		t.Fatal(err, tr.truncated)
	}
	steps := tr.steps
	// Count the runs of kinds: 10 forced, guess 1 at cell 0, 44 forced,
	// 45 undos, guess 7 at cell 0, 21 forced, 22 undos.
	type run struct {
		kind StepKind
		n    int
	}
	var runs []run
	for _, s := range steps {
		if len(runs) > 0 && runs[len(runs)-1].kind == s.Kind {
			runs[len(runs)-1].n++
		} else {
			runs = append(runs, run{s.Kind, 1})
		}
	}
	wantRuns := []run{{Forced, 10}, {Guess, 1}, {Forced, 44}, {Undo, 45}, {Guess, 1}, {Forced, 21}, {Undo, 22}}
	if len(runs) != len(wantRuns) {
		t.Fatalf("runs %v, want %v", runs, wantRuns)
	}
	for i := range runs {
		if runs[i] != wantRuns[i] {
			t.Fatalf("runs %v, want %v", runs, wantRuns)
		}
	}
	if s := steps[10]; s != (Step{Guess, 0, 1}) {
		t.Errorf("first guess %+v", s)
	}
	if s := steps[10+1+44+45]; s != (Step{Guess, 0, 7}) {
		t.Errorf("second guess %+v", s)
	}
}

// TestDigitOrder shows that for puzzles with at most one solution the counts
// do not depend on the order in which a branch point's digits are tried.
func TestDigitOrder(t *testing.T) {
	gs := readPuzzles(t, "testdata/top1465_first20.txt")
	gs = append(gs, readPuzzles(t, "testdata/hardest1106_first10.txt")...)
	gs = append(gs, mustParse(t, noSolutionDeep))
	for _, g := range gs {
		up, err1 := solve(g, Options{}, nil, false)
		down, err2 := solve(g, Options{}, nil, true)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if up != down {
			t.Errorf("%s: digits 1-9 %+v, 9-1 %+v", g, up, down)
		}
	}
}

// replay plays steps from the givens and checks each is legal: it returns
// the number of guess steps, the number of distinct branch points and
// whether the grid passed through want.
func replay(t *testing.T, g Grid, steps []Step, want Grid) (guesses, branchPoints int, reached bool) {
	t.Helper()
	cur := g
	var kinds []StepKind // kind of each placement on the board, by order
	var cells []uint8
	for i, s := range steps {
		if s.Cell > 80 || s.Digit < 1 || s.Digit > 9 {
			t.Fatalf("step %d: %+v out of range", i, s)
		}
		switch s.Kind {
		case Forced, Guess:
			if cur[s.Cell] != 0 {
				t.Fatalf("step %d: %+v into a full cell", i, s)
			}
			cur[s.Cell] = s.Digit
			if err := cur.Validate(); err != nil {
				t.Fatalf("step %d: %+v clashes: %v", i, s, err)
			}
			if s.Kind == Guess {
				guesses++
				// A sibling guess directly follows the undo of the previous
				// guess at the same cell.
				prev := i > 0 && steps[i-1].Kind == Undo && steps[i-1].Cell == s.Cell && lastUndoneWasGuess(steps, i-1, g)
				if !prev {
					branchPoints++
				}
			}
			kinds = append(kinds, s.Kind)
			cells = append(cells, s.Cell)
		case Undo:
			if len(cells) == 0 || cells[len(cells)-1] != s.Cell || cur[s.Cell] != s.Digit {
				t.Fatalf("step %d: %+v is not the last placement", i, s)
			}
			cur[s.Cell] = 0
			kinds, cells = kinds[:len(kinds)-1], cells[:len(cells)-1]
		}
		if cur == want {
			reached = true
		}
	}
	return guesses, branchPoints, reached
}

// lastUndoneWasGuess reports whether the undo at steps[i] removed a guess.
func lastUndoneWasGuess(steps []Step, i int, _ Grid) bool {
	// Walk back to the placement this undo matches: LIFO pairs.
	depth := 0
	for j := i; j >= 0; j-- {
		if steps[j].Kind == Undo {
			depth++
			continue
		}
		depth--
		if depth == 0 {
			return steps[j].Kind == Guess
		}
	}
	return false
}

func TestTrace(t *testing.T) {
	gs := readPuzzles(t, "testdata/norvig_easy50.txt")[:10]
	gs = append(gs, readPuzzles(t, "testdata/top1465_first20.txt")...)
	gs = append(gs, readPuzzles(t, "testdata/hardest1106_first10.txt")...)
	gs = append(gs, mustParse(t, noSolutionDeep))
	maxLen := 0
	for _, g := range gs {
		steps, truncated, r, err := Trace(g, 0, Options{})
		if err != nil || truncated {
			t.Fatalf("%s: %v, truncated %v", g, err, truncated)
		}
		maxLen = max(maxLen, len(steps))
		plainRes, _ := Solve(g, Options{})
		if r.Solutions != plainRes.Solutions || r.Solution != plainRes.Solution {
			t.Fatalf("%s: Trace result %+v, Solve %+v", g, r, plainRes)
		}
		if r.Solutions > 0 {
			// The trace is the run Rate records.
			p, err := Rate(g, Options{})
			if err != nil || p.Backtracks != r.Backtracks || p.Guesses != r.Guesses || p.Nodes != r.Nodes || p.Solution != r.Solution {
				t.Fatalf("%s: Trace result %+v, Rate %+v, %v", g, r, p, err)
			}
		}
		guesses, branches, reached := replay(t, g, steps, r.Solution)
		if int64(guesses) != r.Backtracks || int64(branches) != r.Guesses {
			t.Errorf("%s: %d guess steps at %d branch points; result %+v", g, guesses, branches, r)
		}
		if r.Solutions == 1 && !reached {
			t.Errorf("%s: replay never shows the solution", g)
		}
	}
	t.Logf("longest trace %d steps", maxLen)

	// A capped trace: the cap holds, the result is still exact.
	g := gs[len(gs)-2]
	steps, truncated, r, err := Trace(g, 25, Options{})
	_, _, want, _ := Trace(g, 0, Options{})
	if err != nil || !truncated || len(steps) != 25 || r != want {
		t.Errorf("capped trace: %d steps, truncated %v, %+v, %v", len(steps), truncated, r, err)
	}
	// A multi-solution trace replays legally too and stops at the second.
	steps, _, r, _ = Trace(Grid{}, 0, Options{})
	if _, _, reached := replay(t, Grid{}, steps, r.Solution); !reached || r.Solutions != 2 {
		t.Errorf("empty grid: reached %v, %+v", reached, r)
	}
}

func TestBounds(t *testing.T) {
	g := mustParse(t, hostile)
	if _, err := Solve(g, Options{MaxNodes: 1000}); !errors.Is(err, ErrBudget) {
		t.Errorf("budget: %v, want ErrBudget", err)
	}
	done := make(chan struct{})
	close(done)
	r, err := Solve(g, Options{Done: done})
	if !errors.Is(err, ErrCanceled) || r.Nodes > 2*doneEvery {
		t.Errorf("canceled: %v after %d nodes, want ErrCanceled within %d", err, r.Nodes, doneEvery)
	}
	if _, err := Rate(g, Options{MaxNodes: 10}); !errors.Is(err, ErrBudget) {
		t.Errorf("Rate budget: %v", err)
	}
	if _, _, _, err := Trace(g, 10, Options{MaxNodes: 10}); !errors.Is(err, ErrBudget) {
		t.Errorf("Trace budget: %v", err)
	}
}

func TestRate(t *testing.T) {
	g := mustParse(t, easy)
	p, err := Rate(g, Options{Runs: 5})
	if err != nil {
		t.Fatal(err)
	}
	if p.Solution.String() != easySol || p.Solutions != 1 || p.Clues != 30 || p.SolveNS <= 0 ||
		p.EngineVersion != EngineVersion || p.Givens != g || p.Nodes != 1 {
		t.Errorf("Rate = %+v", p)
	}
	if _, err := Rate(mustParse(t, "55"+strings.Repeat(".", 79)), Options{}); err == nil {
		t.Error("Rate accepted a conflict")
	}
	p, err = Rate(Grid{}, Options{})
	if err != nil || p.Solutions != 2 {
		t.Errorf("empty grid: %+v, %v", p, err)
	}
}

// TestAgainstPlain cross-checks solution counts and solutions with the plain
// reference algorithm on the easy set and on random hostile grids: valid
// grids with some cells blanked, some with a wrong digit given.
func TestAgainstPlain(t *testing.T) {
	racefree.Only(t)
	check := func(g Grid) bool {
		want, first, ok := plainSolve(g, 2_000_000)
		if !ok {
			return false
		}
		r, err := Solve(g, Options{})
		if err != nil {
			if g.Validate() == nil {
				t.Fatalf("%s: %v", g, err)
			}
			return true
		}
		if r.Solutions != want {
			t.Fatalf("%s: %d solutions, plain algorithm %d", g, r.Solutions, want)
		}
		if want == 1 && r.Solution != first {
			t.Fatalf("%s: solution %s, plain algorithm %s", g, r.Solution, first)
		}
		if want > 0 {
			checkSolution(t, g, r.Solution)
		}
		return true
	}
	for _, g := range readPuzzles(t, "testdata/norvig_easy50.txt") {
		if !check(g) {
			t.Fatalf("%s: plain algorithm gave up", g)
		}
	}
	rng := rand.New(rand.NewPCG(2026, 11))
	sols := readPuzzles(t, "testdata/norvig_easy50.txt")
	counts := map[int]int{}
	checked := 0
	n := 400
	if testing.Short() {
		n = 100
	}
	for i := 0; i < n; i++ {
		r, _ := Solve(sols[rng.IntN(len(sols))], Options{})
		g := r.Solution
		keep := 24 + rng.IntN(40)
		for _, c := range rng.Perm(81)[keep:] {
			g[c] = 0
		}
		if rng.IntN(3) == 0 { // a wrong digit, sometimes clashing
			c := rng.IntN(81)
			g[c] = uint8(1 + (int(r.Solution[c])+rng.IntN(8))%9)
		}
		if check(g) {
			checked++
			res, _ := Solve(g, Options{})
			counts[res.Solutions]++
		}
	}
	if checked < n*9/10 || counts[0] == 0 || counts[1] == 0 || counts[2] == 0 {
		t.Errorf("checked %d of %d, solution counts %v: want all of 0, 1 and 2", checked, n, counts)
	}
	t.Logf("checked %d random grids: solution counts %v", checked, counts)
}

// ExampleSolve shows a search that needs no guess.
func ExampleSolve() {
	g, err := Parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	if err != nil {
		panic(err)
	}
	r, err := Solve(g, Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Solution, r.Solutions, r.Guesses, r.Backtracks, r.Nodes)
	// Output: 534678912672195348198342567859761423426853791713924856961537284287419635345286179 1 0 0 1
}
