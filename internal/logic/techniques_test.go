package logic

import "testing"

// TestAPE builds a board where r1c7 {1,2} and r1c8 {1,3} see every cell
// of row 1. The first pair is r1c1 {1,2,3} and r1c2 (all digits): r1c2=1
// leaves r1c1 2 or 3, which empties r1c7 or r1c8, so 1 goes from r1c2.
func TestAPE(t *testing.T) {
	var b board
	for c := range 81 {
		b.cand[c] = allDigits
	}
	b.empty = 81
	b.cand[0], b.cand[4] = 1<<1|1<<2|1<<3, 1<<1|1<<2|1<<3
	b.cand[6], b.cand[7] = 1<<1|1<<2, 1<<1|1<<3
	s := newSolver(b, Options{})
	s.refresh()
	st, ok := s.ape()
	if !ok {
		t.Fatal("no aligned pair exclusion found")
	}
	want := []Candidate{{1, 1}}
	if len(st.Eliminations) != 1 || st.Eliminations[0] != want[0] {
		t.Fatalf("eliminations %v, want %v", st.Eliminations, want)
	}
	if st.Grade != 6.2 {
		t.Fatalf("grade %.1f", st.Grade)
	}
	t.Log(st.render())
}
