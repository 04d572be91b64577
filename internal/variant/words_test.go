package variant

import (
	"strings"
	"testing"
)

// TestWords writes every test puzzle's rules: a sentence for each type it
// has (none for an unknown one), the opening sentence first, and the
// figures that matter (a killer's count of cages).
func TestWords(t *testing.T) {
	for _, tp := range readTestPuzzles(t, puzzlesFile) {
		w := Words(tp.p)
		if !strings.HasPrefix(w[0], "Normal Sudoku rules apply") {
			t.Errorf("%s: first sentence %q", tp.name, w[0])
		}
		for _, s := range w {
			if !strings.HasSuffix(s, ".") {
				t.Errorf("%s: %q is not a sentence", tp.name, s)
			}
		}
		for _, r := range tp.p.Rules {
			if Name(r) == "" {
				t.Errorf("%s: rule %s has no name", tp.name, r.Type)
			}
		}
	}
	if w := Words(Puzzle{}); len(w) != 1 || w[0] != "Normal Sudoku rules apply." {
		t.Errorf("classic: %q", w)
	}
	seventeen := 17
	p := Puzzle{Rules: []Rule{
		{Type: DiagonalPlus}, {Type: DiagonalMinus},
		{Type: Killer, Cells: []Cell{39, 40}, Total: &seventeen},
		{Type: Killer, Cells: []Cell{0, 1}},
		{Type: Thermo, Cells: []Cell{9, 10, 11}},
		{Type: Arrow, Cells: []Cell{20, 21, 22, 23}, Circle: 2},
	}}
	got := strings.Join(Words(p), " ")
	for _, want := range []string{
		"Normal Sudoku rules apply.",
		"either marked diagonal",
		"(2 cages)",
		"A cage without a total",
		"Digits along a thermometer increase from the bulb (1 thermometer).",
		"two-cell pill",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("words %q lack %q", got, want)
		}
	}
	for r, want := range map[int]string{
		2: "the killer cage of 17 in box 5",
		3: "the killer cage in box 1",
		4: "the thermometer from r2c1",
		0: "the rising diagonal",
	} {
		if got := Name(p.Rules[r]); got != want {
			t.Errorf("Name(rule %d) = %q, want %q", r, got, want)
		}
	}
	cross := Rule{Type: Killer, Cells: []Cell{2, 3}, Total: &seventeen}
	if got := Name(cross); got != "the killer cage of 17 at r1c3" {
		t.Errorf("Name(cage over two boxes) = %q", got)
	}
	sw := Rule{Type: Sandwich, Line: "c4", Total: &seventeen}
	if got := Name(sw); got != "the sandwich clue of 17 in column 4" {
		t.Errorf("Name(sandwich) = %q", got)
	}
}
