package record

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestBandFollowsGrade checks that setting a puzzle's grade sets its band,
// and taking the grade away takes the band.
func TestBandFollowsGrade(t *testing.T) {
	var p Puzzle
	p.SetGradeTenths(72)
	if p.Band != sudoku.BandExtreme {
		t.Errorf("grade 7.2: band %q", p.Band)
	}
	g := 2.3
	p.SetGrade(&g)
	if p.Band != sudoku.BandMedium {
		t.Errorf("grade 2.3: band %q", p.Band)
	}
	p.SetGradeTenths(0)
	if p.Band != "" || p.Grade != nil {
		t.Errorf("no grade: band %q, grade %v", p.Band, p.Grade)
	}
	p.SetGrade(nil)
	if p.Band != "" {
		t.Errorf("nil grade: band %q", p.Band)
	}
}

// TestBandCounts checks that the band counts are summed from the grade
// counters, leaving out the entries without a grade.
func TestBandCounts(t *testing.T) {
	s := Stats{Grades: []GradeCount{{Tenths: 0, N: 9}, {Tenths: 12, N: 1}, {Tenths: 20, N: 2}, {Tenths: 21, N: 3},
		{Tenths: 46, N: 4}, {Tenths: 66, N: 5}, {Tenths: 67, Technique: "a", N: 6}, {Tenths: 67, Technique: "b", N: 7}}}
	want := []int64{3, 3, 4, 5, 13}
	got := s.BandCounts()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("BandCounts() = %v, want %v", got, want)
		}
	}
}
