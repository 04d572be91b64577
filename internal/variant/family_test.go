package variant

import (
	"slices"
	"testing"
)

// TestFamilies holds every rule type to a short name of docs/api.md and
// the list of names to the contract's 21 and extra-region (f-puzzles'
// extraregion of any shape, issue 47's list of f-puzzles names).
func TestFamilies(t *testing.T) {
	for _, ty := range Types {
		if ty.Family() == "" {
			t.Errorf("rule type %q has no variant name", ty)
		}
	}
	want := []string{"anti-king", "anti-knight", "arrow", "asterisk", "centre-dot",
		"disjoint-groups", "extra-region", "girandola", "jigsaw", "killer", "kropki", "little-killer",
		"non-consecutive", "odd-even", "palindrome", "renban", "sandwich", "thermo",
		"whispers", "windoku", "x", "xv"}
	if got := FamilyNames(); !slices.Equal(got, want) {
		t.Errorf("FamilyNames() = %v, want %v", got, want)
	}
	p := Puzzle{Rules: []Rule{{Type: White}, {Type: Thermo}, {Type: Black}, {Type: DiagonalMinus}}}
	if got := Families(p); !slices.Equal(got, []string{"kropki", "thermo", "x"}) {
		t.Errorf("Families = %v", got)
	}
}
