package logic

import (
	"flag"
	"math"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

var (
	full   = flag.Bool("logic.full", false, "measure agreement on the whole rated file")
	sample = flag.Int("logic.sample", 300, "rated puzzles in the default agreement run")
)

func parse(tb testing.TB, s string) sudoku.Grid {
	tb.Helper()
	g, err := sudoku.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// checkPath replays a path against the solution.
func checkPath(tb testing.TB, name string, g sudoku.Grid, r Result) {
	tb.Helper()
	res, err := sudoku.Solve(g, sudoku.Options{})
	if err != nil || res.Solutions != 1 {
		tb.Fatalf("%s: reference solve: %v %d", name, err, res.Solutions)
	}
	sol := res.Solution
	b := newBoard(g)
	for i, st := range r.Steps {
		for _, p := range st.Placements {
			if int(sol[p.Cell]) != p.Digit {
				tb.Fatalf("%s step %d (%s): places %d at %s, solution has %d: %s", name, i, st.Technique, p.Digit, cellName(p.Cell), sol[p.Cell], st.Text)
			}
		}
		for _, e := range st.Eliminations {
			if int(sol[e.Cell]) == e.Digit {
				tb.Fatalf("%s step %d (%s): removes the solution's %d from %s: %s", name, i, st.Technique, e.Digit, cellName(e.Cell), st.Text)
			}
		}
		if len(st.Placements)+len(st.Eliminations) == 0 {
			tb.Fatalf("%s step %d (%s) does nothing", name, i, st.Technique)
		}
		b.apply(st)
	}
	if !r.Floor {
		if b.empty != 0 || !r.Solved {
			tb.Fatalf("%s: path ends unsolved without Floor", name)
		}
		for c := range 81 {
			if b.val[c] != sol[c] {
				tb.Fatalf("%s: path ends off the solution", name)
			}
		}
	}
}

func TestSoundness(t *testing.T) {
	racefree.Only(t)
	n := 100
	if testing.Short() {
		n = 40
	}
	sets := []struct {
		name string
		puz  []string
	}{
		{"diabolical", puzzletest.Lines(t, puzzletest.Diabolical, n)},
		{"top1465", puzzletest.Lines(t, puzzletest.Top1465, n/2)},
		{"forum", puzzletest.Lines(t, puzzletest.Forum1905, n/10)},
	}
	for _, set := range sets {
		for i, p := range set.puz {
			g := parse(t, p)
			r, err := Solve(g, Options{})
			if err != nil {
				t.Fatalf("%s %d: %v", set.name, i, err)
			}
			checkPath(t, set.name, g, r)
		}
	}
}

// agreementFloors are, for each sample size TestAgreement takes (0: the
// whole rated file), Spearman's rho and the share of grades within ±0.2 of
// Sukaku Explainer's rating as measured (rounded down): the test fails when
// the grade agrees less. Measured with grade version 3: 30 puzzles rho
// 0.9883, 93.33%; 300 rho 0.9955, 98.00%; the whole file, 19,860
// puzzles, rho 0.9907, 97.52% (go test ./internal/logic -run TestAgreement
// -v -logic.full -timeout 40m: 10.5 min under a load of 21). The file was rated by an older Sukaku
// Explainer than the held-out set (TestHeldOutAgreement): where we apply
// its current UVWXYZ-Wing at 6.6 the file has 7.1 (the current serate
// gives 6.6), which is most of the misses.
var agreementFloors = map[int]struct{ rho, within float64 }{
	30:  {0.988, 93.3},
	300: {0.995, 98.0},
	0:   {0.990, 97.5},
}

// TestAgreement measures Spearman's rho and the share within ±0.2 between
// the grade and Sukaku Explainer's rating (an even sample of -logic.sample
// puzzles, 30 with -short; -logic.full for all) and asserts they stay at or
// above agreementFloors (a sample size without floors fails: it would
// assert nothing), and that no puzzle stops at a floor: Explainer rated
// them all, so the solver must finish them too.
func TestAgreement(t *testing.T) {
	racefree.Only(t)
	n := *sample
	if *full {
		n = 0
	}
	if testing.Short() {
		n = 30
	}
	rated := puzzletest.RatedPuzzles(t, 0)
	if n > 0 && n < len(rated) {
		step := len(rated) / n
		var pick []puzzletest.Rated
		for i := 0; i < len(rated) && len(pick) < n; i += step {
			pick = append(pick, rated[i])
		}
		rated = pick
	}
	var xs, ys []float64
	close, floors := 0, 0
	start := time.Now()
	diff := map[string]int{}
	for _, r := range rated {
		res, err := Solve(parse(t, r.Puzzle), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Floor {
			floors++
		}
		xs = append(xs, res.Grade)
		ys = append(ys, r.Rating)
		if math.Abs(res.Grade-r.Rating) <= 0.2+1e-9 {
			close++
		} else if testing.Verbose() {
			diff[res.Technique]++
		}
	}
	rho := puzzletest.Spearman(xs, ys)
	within := 100 * float64(close) / float64(len(rated))
	t.Logf("%d puzzles in %v: Spearman rho %.4f, within ±0.2: %.2f%%, floors %d", len(rated), time.Since(start).Round(time.Millisecond), rho, within, floors)
	if len(diff) > 0 {
		t.Logf("techniques of the misses: %v", diff)
	}
	if floors > 0 {
		t.Errorf("%d puzzles stopped at a floor (budget or beyond the ladder)", floors)
	}
	want, ok := agreementFloors[n]
	if !ok {
		t.Fatalf("no agreement floor for a sample of %d: measure it and add it to agreementFloors", n)
	}
	if rho < want.rho || within < want.within {
		t.Errorf("agreement fell: rho %.4f (floor %.3f), within ±0.2 %.2f%% (floor %.1f%%)", rho, want.rho, within, want.within)
	}
}

// TestUniqueRectangle3 solves a diabolical puzzle whose path needs a unique
// rectangle of type 3 (the roof's extra digits and one more cell of the
// unit form a naked pair) and checks that step and the whole path.
func TestUniqueRectangle3(t *testing.T) {
	g := parse(t, "2...6.9.8..74.....8.1.2354...2....8.6.8.5.1.4.7....6...8631.4.9.....98..1.9.4...3")
	r, err := Solve(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPath(t, "ur3", g, r)
	for _, st := range r.Steps {
		if st.Technique == UniqueRectangle3 {
			if len(st.set) == 0 || len(st.Eliminations) == 0 || len(st.Units) != 1 {
				t.Errorf("type 3 step without its set or eliminations: %+v", st)
			}
			return
		}
	}
	t.Errorf("no %s step on the path", UniqueRectangle3)
}
