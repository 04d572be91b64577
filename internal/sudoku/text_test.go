package sudoku

import (
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// TestAppend checks the one writer of a grid as text: Parse reads back what
// it wrote for every puzzle of a collection, a value that is no cell is '?',
// String is the same text, and appending to a reused buffer allocates
// nothing.
func TestAppend(t *testing.T) {
	buf := []byte("x")
	for i, line := range puzzletest.Lines(t, puzzletest.Top1465, 200) {
		g, err := Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		buf = g.Append(buf[:1])
		if got := string(buf[1:]); got != line || g.String() != line {
			t.Fatalf("puzzle %d: Append wrote %q, String %q, want %q", i, got, g.String(), line)
		}
		if back, err := Parse(string(buf[1:])); err != nil || back != g {
			t.Fatalf("puzzle %d: Parse(Append) = %v, %v; want the grid back", i, back, err)
		}
	}
	var bad Grid
	bad[0], bad[80] = 10, 9
	if got, want := string(bad.Append(nil)), "?"+strings.Repeat(".", 79)+"9"; got != want || bad.String() != want {
		t.Errorf("Append(bad) = %q, String %q, want %q", got, bad.String(), want)
	}
	var g Grid
	if n := testing.AllocsPerRun(100, func() { buf = g.Append(buf[:0]) }); n != 0 {
		t.Errorf("Append into a reused buffer: %v allocations, want 0", n)
	}
}
