package sudoku

import (
	"slices"
	"time"
)

// Presentations is K, the number of ways of writing a puzzle that Rate
// searches: fixed transforms (presentation 0 is the identity) applied to
// the canonical form. Rate records the run with the median backtracks; see
// the package documentation for why 3.
const Presentations = 3

// presentation returns the i-th fixed presentation transform. Presentation
// 0 is Identity; the others come from a splitmix64 stream with a fixed seed,
// so they never change (changing them changes the measures: bump
// EngineVersion).
func presentation(i int) Transform {
	if i == 0 {
		return Identity
	}
	return presentationTable[i]
}

// presentationTable holds enough presentations for the Spearman study
// (TestSpearman compares up to 17).
var presentationTable = func() [17]Transform {
	var out [17]Transform
	x := uint64(0x5d0c_0a2c_4e1f_2026) // fixed forever
	next := func(n int) int {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		return int(z % uint64(n))
	}
	perm := func(p []uint8) { // Fisher-Yates
		for i := len(p) - 1; i > 0; i-- {
			j := next(i + 1)
			p[i], p[j] = p[j], p[i]
		}
	}
	lines := func() [9]uint8 {
		bands := []uint8{0, 1, 2}
		perm(bands)
		var p [9]uint8
		for i, b := range bands {
			w := []uint8{0, 1, 2}
			perm(w)
			for j := range 3 {
				p[i*3+j] = b*3 + w[j]
			}
		}
		return p
	}
	for i := range out {
		t := Transform{Transposed: next(2) == 1}
		t.Rows, t.Cols = lines(), lines()
		d := []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9}
		perm(d)
		copy(t.Digits[1:], d)
		out[i] = t
	}
	out[0] = Identity
	return out
}()

// measurement is what Rate and Trace learn about a puzzle before recording.
type measurement struct {
	canon     Grid
	toCanon   Transform // g to canon
	recorded  int       // the presentation whose run is recorded
	res       Result    // that run, its Solution moved back to g
	times     []int64   // wall time of every timed run
	solutions int
}

// toRecorded is the transform from the grid as written to the presentation
// whose search is recorded.
func (m *measurement) toRecorded() Transform {
	return m.toCanon.Then(presentation(m.recorded))
}

// measure finds g's canonical form, searches its K presentations (and more
// timed runs, to runs in all, cycling through them) and picks the run with
// the median backtracks, the lowest numbered presentation among equals. A
// puzzle without solution is measured too (Rate refuses it, Trace not).
// g must be valid (Rate and Trace check it first).
// times, if it has room, holds the run times.
func measure(g Grid, opt Options, runs int, times []int64) (measurement, error) {
	var m measurement
	// The first solution is enough to canonicalise a puzzle whose solution
	// is unique; the presentations' runs then say whether it is, and if not
	// the canonical form of the givens replaces it (the solution count does
	// not depend on the writing, so this choice does not either).
	// The singles at the root are found once, on g: moved by a transform
	// they are the root of that writing's search (rootSingles), so every
	// presentation's search starts from them instead of its givens.
	t0 := time.Now()
	rb, rootOK := rootSingles(g)
	root := rb.grid()
	rootNS := time.Since(t0).Nanoseconds()
	r0 := Result{Nodes: 1} // no solution when the root is a contradiction
	var err error
	if rootOK {
		if r0, err = runFrom(rb, opt, true); err != nil {
			return m, err
		}
	}
	if r0.Solutions == 1 {
		m.canon, m.toCanon = CanonicalSolved(g, r0.Solution)
	} else {
		m.canon, m.toCanon = canonicalGivens(g)
	}
	var results [Presentations]Result
	for pass := 0; ; pass++ {
		m.times = times[:0]
		for i := range max(runs, Presentations) {
			tp := presentation(i % Presentations)
			t := time.Now()
			var r Result
			if rootOK {
				r, err = runFrom(newBoard(tp.Apply(m.toCanon.Apply(root))), opt, false)
			} else {
				r, err = run(tp.Apply(m.canon), opt, nil, false, false) // valid, as g is
			}
			// Each run is timed as a whole search: the shared root's time too.
			m.times = append(m.times, time.Since(t).Nanoseconds()+rootNS)
			if err != nil {
				return m, err
			}
			if i < Presentations {
				results[i] = r
			}
		}
		m.solutions = results[0].Solutions
		if m.solutions != 2 || r0.Solutions != 1 || pass > 0 {
			break
		}
		m.canon, m.toCanon = canonicalGivens(g) // several solutions after all
	}
	order := [Presentations]int{}
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order[:], func(a, b int) int {
		return int(min(max(results[a].Backtracks-results[b].Backtracks, -1), 1))
	})
	m.recorded = order[Presentations/2]
	m.res = results[m.recorded]
	if m.solutions == 1 && r0.Solutions == 1 {
		m.res.Solution = r0.Solution // the only one, as written
	} else {
		m.res.Solution = m.toRecorded().Inverse().Apply(m.res.Solution)
	}
	return m, nil
}
