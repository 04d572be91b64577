package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestAPIExplainBranches: the explanation of a hard puzzle gives each
// forcing chain that compares branches its "branches" (issue 46: the
// board draws one branch at a time), each from its assumption through its
// links to the shared conclusion, and no other step has any.
func TestAPIExplainBranches(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	text := puzzletest.Lines(t, puzzletest.Top1465, 1)[0]
	rec := post(t, s, "/api/puzzles", puzzleBody(text))
	var p record.Puzzle
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || rec.Code != http.StatusCreated {
		t.Fatalf("submit: %d %s", rec.Code, rec.Body)
	}
	rec = get(t, s, fmt.Sprintf("/api/puzzles/%d/explain", p.ID))
	if rec.Code != http.StatusOK {
		t.Fatalf("explain: %d %s", rec.Code, rec.Body)
	}
	type branch struct {
		Assumption *logic.Node  `json:"assumption"`
		Conclusion *logic.Node  `json:"conclusion"`
		Links      []logic.Link `json:"links"`
	}
	var ex struct {
		Steps []struct {
			Technique string       `json:"technique"`
			Links     []logic.Link `json:"links"`
			Branches  []branch     `json:"branches"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &ex); err != nil {
		t.Fatal(err)
	}
	compares := map[string]bool{logic.Nishio: true, logic.CellForcingChain: true, logic.RegionForcingChain: true,
		logic.DynamicForcingChain: true, logic.DynamicForcingChainPlus: true}
	met := 0
	for i, st := range ex.Steps {
		if !compares[st.Technique] {
			if st.Branches != nil {
				t.Errorf("step %d (%s) has branches", i+1, st.Technique)
			}
			continue
		}
		met++
		if len(st.Branches) < 2 {
			t.Fatalf("step %d (%s): %d branches", i+1, st.Technique, len(st.Branches))
		}
		n := 0
		for k, b := range st.Branches {
			if b.Assumption == nil || b.Conclusion == nil || len(b.Links) == 0 {
				t.Fatalf("step %d branch %d: %+v", i+1, k+1, b)
			}
			if b.Links[0].From != b.Assumption.Candidate || b.Links[len(b.Links)-1].To != b.Conclusion.Candidate {
				t.Errorf("step %d branch %d runs %v to %v, not from %v to %v", i+1, k+1,
					b.Links[0].From, b.Links[len(b.Links)-1].To, b.Assumption, b.Conclusion)
			}
			n += len(b.Links)
		}
		if n < len(st.Links) {
			t.Errorf("step %d: the branches hold %d links, the step %d", i+1, n, len(st.Links))
		}
	}
	if met == 0 {
		t.Fatalf("%s: no forcing chain that compares branches in its path", text)
	}
}
