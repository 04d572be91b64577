package puzzletest

import (
	"strings"
	"testing"
)

// TestCollections reads every collection whole: each line is 81 cells.
func TestCollections(t *testing.T) {
	want := map[string]int{
		SeventeenClue: 49158, Top1465: 1465, Forum1106: 375, Forum1905: 24383,
		Diabolical: 19860, Kaggle: 5000, Norvig: 50,
	}
	for _, name := range Collections {
		lines := Lines(t, name, 0)
		if len(lines) != want[name] {
			t.Errorf("%s: %d puzzles, want %d", name, len(lines), want[name])
		}
		for i, l := range lines {
			if len(l) != 81 {
				t.Fatalf("%s line %d: %d chars, want 81", name, i+1, len(l))
			}
		}
	}
	rated := RatedPuzzles(t, 0)
	if len(rated) != 19860 {
		t.Errorf("%d rated puzzles, want 19860", len(rated))
	}
	for _, r := range rated[:10] {
		if r.Rating < 1 || r.Rating > 12 {
			t.Errorf("rating %v out of range", r.Rating)
		}
	}
}

func TestSpearman(t *testing.T) {
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		// Ties share their mean rank: ranks 1.5 1.5 3 4 against 1 2 3 4.
		{[]float64{5, 5, 6, 7}, []float64{1, 2, 3, 4}, 0.9486832980505138},
	} {
		if got := Spearman(tc.x, tc.y); got < tc.want-1e-12 || got > tc.want+1e-12 {
			t.Errorf("Spearman(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestVariants: the variant test set reads whole, each line a name, a
// count of 1 or 2 and a written form.
func TestVariants(t *testing.T) {
	ps := Variants(t)
	if len(ps) < 100 {
		t.Fatalf("%d variant test puzzles, want at least 100", len(ps))
	}
	for _, p := range ps {
		if p.Name == "" || (p.Solutions != 1 && p.Solutions != 2) || !strings.HasPrefix(p.Text, "{") {
			t.Errorf("bad entry %+v", p)
		}
	}
	if got := VariantText(t, ps[0].Name); got != ps[0].Text {
		t.Errorf("VariantText(%s) = %q", ps[0].Name, got)
	}
}
