package record

import (
	"slices"
	"testing"
)

// TestSortTable: every sort has a label, key columns ending in id, and a
// Key with a value per column; Sorts and SortNames follow the table.
func TestSortTable(t *testing.T) {
	p := &Puzzle{ID: 7, Backtracks: 3, SolveNS: 5, Clues: 25}
	for i, info := range SortTable {
		if info.Label == "" || len(info.Columns) == 0 || info.Columns[len(info.Columns)-1] != "id" {
			t.Errorf("%s: label %q, columns %v", info.Sort, info.Label, info.Columns)
		}
		if k := info.Key(p); len(k) != len(info.Columns) || k[len(k)-1] != p.ID {
			t.Errorf("%s: key %v for columns %v", info.Sort, k, info.Columns)
		}
		if Sorts[i] != info.Sort || !info.Sort.Valid() || info.Sort.Label() != info.Label {
			t.Errorf("%s: Sorts, Valid or Label disagree with the table", info.Sort)
		}
		if info.Merged && info.BandIndex == "" {
			t.Errorf("%s: merged without a band index", info.Sort)
		}
	}
	if Sort("hardest").Valid() || Sort("hardest").Label() != "" {
		t.Error("an unknown sort is valid")
	}
	if SortNames() != "difficulty, backtracks, solve_time, submitted, clues, grade, player_time, human" || !slices.Contains(Sorts, SortGrade) {
		t.Errorf("SortNames %q", SortNames())
	}
}

// TestGradeSeconds: the human order's time of a grade is the default
// prior's: 300 s at 2.0, 1,800 s at 7.0, six times as long every 5
// grades; none without a grade; player_seconds go first.
func TestGradeSeconds(t *testing.T) {
	for _, tc := range []struct{ tenths, want int64 }{{0, 0}, {-5, 0}, {20, 300}, {70, 1800}, {120, 10800}, {12, 225}, {45, 735}} {
		if got := GradeSeconds(tc.tenths); got != tc.want {
			t.Errorf("GradeSeconds(%d) = %d, want %d", tc.tenths, got, tc.want)
		}
	}
	g, s := 7.0, int64(95)
	p := Puzzle{Grade: &g}
	if p.HumanSeconds() != 1800 {
		t.Errorf("graded, unplayed: %d", p.HumanSeconds())
	}
	p.PlayerSeconds = &s
	if p.HumanSeconds() != 95 {
		t.Errorf("with player_seconds: %d", p.HumanSeconds())
	}
}
