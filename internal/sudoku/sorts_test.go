package sudoku

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
	if SortNames() != "difficulty, backtracks, solve_time, submitted, clues, grade, player_time" || !slices.Contains(Sorts, SortGrade) {
		t.Errorf("SortNames %q", SortNames())
	}
}
