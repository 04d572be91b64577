package fpuzzles

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// testPuzzles reads package variant's test puzzles by name.
func testPuzzles(t testing.TB) map[string]variant.Puzzle {
	t.Helper()
	return varianttest.Puzzles(t)
}

// same reports whether two puzzles are one puzzle written alike.
func same(a, b variant.Puzzle) bool { return variant.Normal(a).Text() == variant.Normal(b).Text() }

// TestRoundTrip writes every test puzzle of package variant as f-puzzles
// JSON, as an f-puzzles link and as a SudokuPad link, and reads each back:
// every rule, the title and the author kept.
func TestRoundTrip(t *testing.T) {
	types := map[variant.Type]bool{}
	for name, p := range testPuzzles(t) {
		in := Puzzle{Puzzle: p, Title: "Test " + name, Author: "Sudoku Archive ✓", Ruleset: "Normal sudoku rules apply.\nAnd more."}
		b, err := Write(in)
		if err != nil {
			t.Errorf("%s: write: %v", name, err)
			continue
		}
		out, err := Read(b)
		if err != nil {
			t.Errorf("%s: read %s: %v", name, b, err)
			continue
		}
		if !same(in.Puzzle, out.Puzzle) || out.Title != in.Title || out.Author != in.Author || out.Ruleset != in.Ruleset {
			t.Errorf("%s: read back\n%s %q %q\nwant\n%s", name, variant.Normal(out.Puzzle).Text(), out.Title, out.Author, variant.Normal(in.Puzzle).Text())
		}
		for _, mk := range []func(Puzzle) (string, error){Link, SudokuPadLink} {
			l, err := mk(in)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			back, err := ReadLink(l)
			if err != nil || !same(back.Puzzle, in.Puzzle) || back.Title != in.Title {
				t.Errorf("%s: link %s reads back %v", name, l, err)
			}
		}
		for _, r := range p.Rules {
			types[r.Type] = true
		}
	}
	for _, ty := range variant.Types {
		if !types[ty] {
			t.Errorf("no test puzzle has %s", ty)
		}
	}
}
