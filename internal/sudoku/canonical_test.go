package sudoku

import (
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

var canonFull = flag.Bool("canon-full", false, "check canonical invariance on every puzzle of every collection")

// randomTransform returns a uniformly random transform.
func randomTransform(rng *rand.Rand) Transform {
	t := Transform{Transposed: rng.IntN(2) == 1}
	lines := func() [9]uint8 {
		var p [9]uint8
		bands := rng.Perm(3)
		for i, b := range bands {
			for j, w := range rng.Perm(3) {
				p[i*3+j] = uint8(b*3 + w)
			}
		}
		return p
	}
	t.Rows, t.Cols = lines(), lines()
	for i, d := range rng.Perm(9) {
		t.Digits[i+1] = uint8(d + 1)
	}
	return t
}

func parseAll(t testing.TB, lines []string) []Grid {
	t.Helper()
	gs := make([]Grid, len(lines))
	for i, l := range lines {
		g, err := ParseLine(l)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		gs[i] = g
	}
	return gs
}

func TestTransformAlgebra(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gs := parseAll(t, puzzletest.Lines(t, puzzletest.Top1465, 20))
	if !Identity.Valid() || (Transform{}).Valid() {
		t.Fatal("Valid")
	}
	for i := range 2000 {
		a, b := randomTransform(rng), randomTransform(rng)
		g := gs[i%len(gs)]
		if !a.Valid() {
			t.Fatalf("invalid %v", a)
		}
		if Identity.Apply(g) != g || a.Inverse().Apply(a.Apply(g)) != g || a.Apply(a.Inverse().Apply(g)) != g {
			t.Fatalf("%v: Inverse does not undo", a)
		}
		if ab := a.Then(b); !ab.Valid() || ab.Apply(g) != b.Apply(a.Apply(g)) {
			t.Fatalf("%v then %v = %v: wrong", a, b, ab)
		}
		if a.Then(a.Inverse()) != Identity || a.Inverse().Then(a) != Identity || Identity.Then(a) != a || a.Then(Identity) != a {
			t.Fatalf("%v: Then with inverse or identity", a)
		}
		h := a.Apply(g)
		for c := range 81 {
			if h[a.Cell(c)] != a.Digit(g[c]) {
				t.Fatalf("%v: cell %d", a, c)
			}
			if a.Inverse().Cell(a.Cell(c)) != c {
				t.Fatalf("%v: inverse cell %d", a, c)
			}
		}
		if h.Validate() != nil || h.Clues() != g.Clues() {
			t.Fatalf("%v: transformed grid invalid", a)
		}
	}
}

// checkCanonical checks that n random transforms of g have g's canonical
// form, and that the canonical form is its own.
func checkCanonical(t *testing.T, rng *rand.Rand, g Grid, n int) Grid {
	t.Helper()
	c, tr, err := Canonical(g, Options{})
	if err != nil {
		t.Fatalf("%s: %v", g, err)
	}
	if tr.Apply(g) != c {
		t.Fatalf("%s: transform %v gives %s, not %s", g, tr, tr.Apply(g), c)
	}
	if c2, _, _ := Canonical(c, Options{}); c2 != c {
		t.Fatalf("%s: canonical %s, its canonical %s", g, c, c2)
	}
	for range n {
		u := randomTransform(rng)
		h := u.Apply(g)
		ch, trh, err := Canonical(h, Options{})
		if err != nil || ch != c || trh.Apply(h) != ch {
			t.Fatalf("%s: transformed by %v to %s: canonical %s, want %s (%v)", g, u, h, ch, c, err)
		}
	}
	return c
}

func TestCanonicalQuick(t *testing.T) {
	racefree.Only(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range puzzletest.Collections {
		for _, g := range parseAll(t, puzzletest.Lines(t, name, 5)) {
			checkCanonical(t, rng, g, 20)
			// Without a given or two: several solutions.
			h := g
			for n, c := 0, rng.IntN(81); n < 2; c = (c + 1) % 81 {
				if h[c] != 0 {
					h[c] = 0
					n++
				}
			}
			checkCanonical(t, rng, h, 20)
		}
	}
	checkCanonical(t, rng, Grid{}, 5)
}

// TestInvariance is the property: for puzzles of every collection, and the
// same less a few givens (several solutions), every random transform has the
// same canonical form and the same recorded measures and band. With
// -canon-full it takes more puzzles and transforms (minutes).
func TestInvariance(t *testing.T) {
	racefree.Only(t)
	puzzles, transforms := 3, 200
	if *canonFull {
		puzzles, transforms = 40, 500
	} else if testing.Short() {
		puzzles, transforms = 1, 50
	}
	for ci, name := range puzzletest.Collections {
		t.Run(name, func(t *testing.T) {
			transforms := transforms
			if name == puzzletest.Forum1106 && !*canonFull {
				transforms /= 4 // a millisecond or more per measure
			}
			rng := rand.New(rand.NewPCG(uint64(ci), 5))
			for _, g := range parseAll(t, puzzletest.Lines(t, name, puzzles)) {
				h := g
				for n := 1 + rng.IntN(3); n > 0; {
					if c := rng.IntN(81); h[c] != 0 {
						h[c], n = 0, n-1
					}
				}
				for _, p := range []Grid{g, h} {
					checkInvariant(t, rng, p, transforms)
				}
			}
		})
	}
}

func checkInvariant(t *testing.T, rng *rand.Rand, g Grid, n int) {
	t.Helper()
	var times [Presentations]int64
	want, err := measure(g, Options{}, 0, times[:])
	if err != nil {
		t.Fatalf("%s: %v", g, err)
	}
	if want.toCanon.Apply(g) != want.canon {
		t.Fatalf("%s: transform does not give the canonical form", g)
	}
	for range n {
		u := randomTransform(rng)
		h := u.Apply(g)
		got, err := measure(h, Options{}, 0, times[:])
		if err != nil {
			t.Fatal(err)
		}
		w, r := want.res, got.res
		if got.canon != want.canon || r.Solutions != w.Solutions || r.Backtracks != w.Backtracks || r.Guesses != w.Guesses ||
			r.Nodes != w.Nodes {
			t.Fatalf("%s, written as %s (%v):\ncanonical %s, %+v\nwant      %s, %+v", g, h, u, got.canon, r, want.canon, w)
		}
		if w.Solutions == 1 && r.Solution != u.Apply(w.Solution) {
			t.Fatalf("%s: solution not moved back", h)
		}
	}
}

// FuzzCanonical: for any valid grid (within a search budget), the canonical
// form of a transform of it is its canonical form, and the canonical form is
// its own.
func FuzzCanonical(f *testing.F) {
	for i, s := range []string{easy, strings.Repeat(".", 81), noSolutionDeep,
		"...8.1..........435............7.8........1...2..3....6......75..34........2..6..",
		"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
		"1" + strings.Repeat(".", 80)} {
		f.Add(s, uint64(i))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		g, err := Parse(s)
		if err != nil || g.Validate() != nil {
			return
		}
		opt := Options{MaxNodes: 20_000}
		c, tr, err := Canonical(g, opt)
		if err != nil {
			return // over budget
		}
		if tr.Apply(g) != c {
			t.Fatalf("%s: %v gives %s, not %s", g, tr, tr.Apply(g), c)
		}
		if c2, _, err := Canonical(c, opt); err != nil || c2 != c {
			t.Fatalf("%s: canonical %s, its canonical %s (%v)", g, c, c2, err)
		}
		u := randomTransform(rand.New(rand.NewPCG(seed, seed>>32)))
		if c3, _, err := Canonical(u.Apply(g), opt); err != nil || c3 != c {
			t.Fatalf("%s: canonical %s, of %s (%v) %s (%v)", g, c, u.Apply(g), u, c3, err)
		}
	})
}

// TestRootSingles: the singles at the root, moved by a transform, are the
// root board of the moved puzzle's own search, so measure may start every
// presentation's search from them.
func TestRootSingles(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range puzzletest.Collections {
		for _, g := range parseAll(t, puzzletest.Lines(t, name, 20)) {
			bd, ok := rootSingles(g)
			if !ok {
				t.Fatalf("%s: contradiction at the root", g)
			}
			if newBoard(bd.grid()) != bd {
				t.Fatalf("%s: the root board is not the board of its digits", g)
			}
			for range 10 {
				u := randomTransform(rng)
				moved, ok := rootSingles(u.Apply(g))
				if !ok || newBoard(u.Apply(bd.grid())) != moved {
					t.Fatalf("%s moved by %v: root singles differ", g, u)
				}
			}
		}
	}
}
