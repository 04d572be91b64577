package variant

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// fullGroupPuzzles lists the test puzzles whose group is the full classic
// group (FullGroup), and mixes of them made here: cages without totals
// (digits relabelled), cages with odd/even cells and extra regions, and
// a killer without givens with its totals taken off. The mixes need not
// be solvable: only their canonical forms are compared.
func fullGroupPuzzles(t testing.TB) []testPuzzle {
	byName := map[string]Puzzle{}
	var out []testPuzzle
	for _, tp := range allTestPuzzles(t) {
		byName[tp.name] = tp.p
		if FullGroup(tp.p) {
			out = append(out, tp)
		}
	}
	noTotals := func(p Puzzle) Puzzle {
		q := Puzzle{Givens: p.Givens}
		for _, r := range p.Rules {
			r.Total = nil
			q.Rules = append(q.Rules, r)
		}
		return q
	}
	mix := func(cages Puzzle, others ...Puzzle) Puzzle {
		q := Puzzle{Givens: cages.Givens, Rules: slices.Clone(cages.Rules)}
		for _, o := range others {
			q.Rules = append(q.Rules, o.Rules...)
		}
		return q
	}
	for _, m := range []struct {
		name string
		p    Puzzle
	}{
		{"killer-nogivens-1 without totals", noTotals(byName["killer-nogivens-1"])},
		{"killer-1 without totals", noTotals(byName["killer-1"])},
		{"killer-nogivens-2 + odd", mix(byName["killer-nogivens-2"], byName["odd-1"])},
		{"killer-nogivens-4 + even", mix(byName["killer-nogivens-4"], byName["even-1"])},
		{"killer-nogivens-3 without totals + extraregion", mix(noTotals(byName["killer-nogivens-3"]), byName["extraregion-1"])},
		{"killer-2 + extraregion + odd", mix(byName["killer-2"], byName["extraregion-2"], byName["odd-2"])},
	} {
		if !FullGroup(m.p) {
			t.Fatalf("%s: not of the full group", m.name)
		}
		out = append(out, testPuzzle{name: m.name, p: m.p})
	}
	return out
}

// TestFullGroupCanonical puts every puzzle of the full group (and the mixes
// above) through random members of the 3,359,232 moves, each written
// another way, and gets one canonical form, which is a member of the
// puzzle's orbit (Normal(Apply(t, p)) with the t Canonical returns).
func TestFullGroupCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 47))
	members := 24
	if testing.Short() {
		members = 8
	}
	tps := fullGroupPuzzles(t)
	if len(tps) < 12 {
		t.Fatalf("only %d puzzles of the full group", len(tps))
	}
	// A few cages on an empty grid: thousands of moves tie on the labels,
	// and the cages' structure decides.
	a, b := apartPair()
	tps = append(tps, testPuzzle{name: "sparse a", p: a}, testPuzzle{name: "sparse b", p: b})
	for _, tp := range tps {
		want, wt := canonicalVariant(tp.p)
		if got := Normal(Apply(wt, tp.p)); got.Text() != want.Text() {
			t.Fatalf("%s: the move returned does not give the canonical form", tp.name)
		}
		for range members {
			tr := randomMember(r, tp.p)
			q := rewrite(r, Apply(tr, tp.p))
			if err := q.Validate(); err != nil {
				t.Fatalf("%s moved by %v: %v", tp.name, tr, err)
			}
			if got, _ := canonicalVariant(q); got.Text() != want.Text() {
				t.Errorf("%s moved by %v:\ncanonical %s\nwant      %s", tp.name, tr, got.Text(), want.Text())
			}
		}
	}
}

// TestFullGroupApart: two killers without givens or totals whose cages
// have the same sizes and fill the same box but are not one puzzle (a move keeps how many rows and columns each cage spans,
// and those differ) get two canonical forms.
func TestFullGroupApart(t *testing.T) {
	a, b := apartPair()
	ca, _ := canonicalVariant(a)
	cb, _ := canonicalVariant(b)
	if ca.Text() == cb.Text() {
		t.Fatalf("two puzzles, one canonical form %s", ca.Text())
	}
	if slices.Equal(spans(a), spans(b)) {
		t.Fatal("the two puzzles share the invariant: pick another pair")
	}
}

// apartPair is a straight tromino and three dominoes filling the top-left
// box, and a bent tromino and three dominoes filling it.
func apartPair() (Puzzle, Puzzle) {
	a := Puzzle{Rules: []Rule{
		{Type: Killer, Cells: []Cell{0, 1, 2}},
		{Type: Killer, Cells: []Cell{9, 10}},
		{Type: Killer, Cells: []Cell{11, 20}},
		{Type: Killer, Cells: []Cell{18, 19}},
	}}
	b := Puzzle{Rules: []Rule{
		{Type: Killer, Cells: []Cell{0, 1, 9}},
		{Type: Killer, Cells: []Cell{2, 11}},
		{Type: Killer, Cells: []Cell{10, 19}},
		{Type: Killer, Cells: []Cell{18, 20}},
	}}
	return a, b
}

// spans lists each cage's rows and columns spanned (the lesser first,
// since a move may transpose), sorted: what every move keeps.
func spans(p Puzzle) [][2]int {
	var out [][2]int
	for _, r := range p.Rules {
		rows, cols := map[int]bool{}, map[int]bool{}
		for _, c := range r.Cells {
			rows[c.row()], cols[c.col()] = true, true
		}
		out = append(out, [2]int{min(len(rows), len(cols)), max(len(rows), len(cols))})
	}
	slices.SortFunc(out, func(x, y [2]int) int { return slices.Compare(x[:], y[:]) })
	return out
}

// BenchmarkCanonicalFull measures the canonical form of the full group's
// puzzles (killers without givens included): an op is one pass over
// them; it reports the p99, the worst and the rate of one puzzle in wall
// time and in the thread's CPU time (report, as BenchmarkVariants; on a
// shared machine the CPU figures are the ones to compare, with -cpu 1),
// and cpu-ms/puzzle, the mean.
func BenchmarkCanonicalFull(b *testing.B) {
	tps := fullGroupPuzzles(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var times, cpus []time.Duration
	for b.Loop() {
		for _, tp := range tps {
			c0, cpuOK := threadCPU()
			t0 := time.Now()
			canonicalVariant(tp.p)
			times = append(times, time.Since(t0))
			if c1, _ := threadCPU(); cpuOK {
				cpus = append(cpus, c1-c0)
			}
		}
	}
	b.StopTimer()
	report(b, times, "")
	if len(cpus) > 0 {
		var sum time.Duration
		for _, d := range cpus {
			sum += d
		}
		b.ReportMetric(float64(sum.Microseconds())/1000/float64(len(cpus)), "cpu-ms/puzzle")
		report(b, cpus, "cpu-")
	}
}
