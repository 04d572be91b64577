package sudoku

import (
	"strings"
	"testing"
)

func fuzzSeeds(f *testing.F) {
	for _, s := range []string{easy, drawn, strings.Repeat(".", 81), easy + " 7.2 name", easy + "1", easy[:80], "x" + easy, "\xff", "é" + easy, ""} {
		f.Add(s)
	}
}

// FuzzParse: Parse never panics, and what it accepts round-trips through
// the canonical form.
func FuzzParse(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		g, err := Parse(s)
		if err != nil {
			if g != (Grid{}) {
				t.Fatal("grid returned with an error")
			}
			return
		}
		h, err := Parse(g.String())
		if err != nil || h != g {
			t.Fatalf("Parse(%q) = %v, %v; want %v", g.String(), h, err, g)
		}
		if g.Validate() == nil {
			// Bounded so a fuzzed grid cannot stall the fuzzer.
			if r, err := Solve(g, Options{MaxNodes: 20_000}); err == nil && r.Solutions > 0 {
				checkSolution(t, g, r.Solution)
			}
		}
	})
}

// FuzzParseLine: ParseLine never panics, agrees with Parse on the cells it
// reads, and ignores text after white space.
func FuzzParseLine(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseLine(s)
		if err != nil {
			return
		}
		h, err := Parse(g.String())
		if err != nil || h != g {
			t.Fatalf("Parse(%q) = %v, %v; want %v", g.String(), h, err, g)
		}
		if g2, err := ParseLine(s + " trailing text"); err != nil || g2 != g {
			t.Fatalf("ParseLine with trailing text = %v, %v", g2, err)
		}
	})
}
