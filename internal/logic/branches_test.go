package logic

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestBranchLinks: every forcing chain that compares branches, over the
// paths of hard puzzles (the forum's top list), reports its branches
// (issue 46: a board draws them one at a time), and each branch's links
// form a path from the branch's assumption to its conclusion, the
// branches share one conclusion candidate, their count is the step's
// branch count where it has one, and together they cover the step's links
// and nothing else.
func TestBranchLinks(t *testing.T) {
	racefree.Only(t)
	n := 400
	if testing.Short() {
		n = 100
	}
	seen := map[string]int{}
	for _, l := range puzzletest.Lines(t, puzzletest.Top1465, n) {
		p, err := record.Rate(parse(t, l), sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Explain(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range r.Steps {
			if bs := st.BranchLinks(); bs != nil {
				seen[st.Technique]++
				checkBranches(t, l, st, bs)
			}
		}
	}
	for _, name := range []string{Nishio, CellForcingChain, DynamicForcingChain} {
		if seen[name] == 0 {
			t.Errorf("no %s met: %v", name, seen)
		}
	}
	t.Logf("forcing chains checked: %v", seen)
}

func checkBranches(t *testing.T, puzzle string, st Step, bs []Branch) {
	t.Helper()
	where := puzzle + " " + st.Text
	if len(bs) < 2 {
		t.Fatalf("%s: %d branches", where, len(bs))
	}
	if st.Branches > 0 && len(bs) != st.Branches {
		t.Errorf("%s: %d branches, the step counts %d", where, len(bs), st.Branches)
	}
	covered := map[Link]bool{}
	for k, b := range bs {
		if b.Conclusion.Candidate != bs[0].Conclusion.Candidate {
			t.Errorf("%s: branch %d ends on %v, branch 1 on %v", where, k+1, b.Conclusion, bs[0].Conclusion)
		}
		at := b.Assumption.Candidate
		for i, l := range b.Links {
			if l.From != at {
				t.Fatalf("%s: branch %d link %d starts at %v, not %v", where, k+1, i+1, l.From, at)
			}
			at = l.To
			covered[l] = true
		}
		if at != b.Conclusion.Candidate {
			t.Errorf("%s: branch %d ends at %v, not its conclusion %v", where, k+1, at, b.Conclusion)
		}
	}
	links := st.Links()
	for _, l := range links {
		if !covered[l] {
			t.Errorf("%s: link %v is in no branch", where, l)
		}
	}
	if len(covered) != len(links) {
		t.Errorf("%s: the branches hold %d links, the step %d", where, len(covered), len(links))
	}
}
