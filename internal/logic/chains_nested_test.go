package logic

import (
	"context"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The nested forcing chains have no published example that gives the
// deduction with Sukaku Explainer's rules: each row is the first step of a
// puzzle of the Hardest Sudokus Database (puzzletest.HardestRate, its line)
// whose first step Explainer rates at that level (the database's ED).
func init() {
	examples = append(examples,
		example{technique: NestedForcingChain, source: "hardest_db_110626_rated line 19 (ED 10.4)", first: true,
			givens: "..5...7...8...6.4.9.......2.4...3......65.......4.8.1.2.......9.1.8...3...7...5..", want: "r4c8<>8"},
		example{technique: NestedMultipleChain, source: "hardest_db_110626_rated line 11 (ED 11.4)", first: true,
			givens: "2.......6.5..8..1...4...9...7.3.1......82.......7.5.3...9...4...8..1..5.6.......2", want: "r3c1<>3"},
		example{technique: NestedDynamicChain, source: "hardest_db_110626_rated line 21 (ED 11.6)", first: true,
			givens: "..9...4...7.3...2.8...6...71..8....6....1..7.....56...3....5..1.4.....9...2...7..", want: "r8c5<>7"},
	)
}

// firstStep is the first step of ex's givens, with the graders' budget.
func firstStep(t *testing.T, ex example) Step {
	s := newSolver(newBoard(parse(t, ex.givens)), Options{Budget: DeepBudget})
	defer s.release()
	st, ok := s.nextStep()
	if !ok {
		t.Fatalf("no first step for %s", ex.technique)
	}
	return st
}

// nextStep is next without the floor.
func (s *solver) nextStep() (Step, bool) {
	st, ok, _ := s.next()
	return st, ok
}

// TestStop: a closed Options.Stop ends a grade at its first look (a forum
// puzzle that would take seconds), Result.Stopped says so, and GradeDeep
// leaves the puzzle ungraded.
func TestStop(t *testing.T) {
	g := parse(t, "..5...7...8...6.4.9.......2.4...3......65.......4.8.1.2.......9.1.8...3...7...5..")
	stop := make(chan struct{})
	close(stop)
	r, err := Solve(g, Options{Budget: DeepBudget, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Stopped || !r.Floor || r.Solved {
		t.Errorf("stopped %v floor %v solved %v, want a stopped floor", r.Stopped, r.Floor, r.Solved)
	}
	p, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if GradeDeep(ctx, &p) || p.Grade != nil || p.GradeVersion != "" {
		t.Errorf("GradeDeep after its context ended: grade %v version %q, want none", p.Grade, p.GradeVersion)
	}
}
