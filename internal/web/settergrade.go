package web

// settergrade.go grades a setter's puzzle past a request's budget (issue
// 34: a hard puzzle got "—" and no reason). POST /api/analyse grades
// within logic.RequestBudget; a unique puzzle that needs more is answered
// "grade_status": "pending" and graded here in the background with the
// full budget, in a turn of the search gate, nothing stored; the setter's
// page asks again and gets the figures. The results are kept in memory by
// canonical form, a bounded number of them.

import (
	"context"
	"sync"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Bounds of the setter's background grades: how many wait or run at once
// (more are answered "none" with the reason, "busy"), and how many results
// are kept.
const (
	maxSetterGrading = 8
	maxSetterGrades  = 256
)

// setterGrades holds the background grades of setters' puzzles.
type setterGrades struct {
	mu      sync.Mutex
	running map[sudoku.Grid]bool          // being graded, by canonical form
	done    map[sudoku.Grid]sudoku.Puzzle // graded: the puzzle with its grade figures
}

// gradeState is what the setter's grades know of a canonical form: done
// (p holds the figures), pending (being graded), or busy (too many at
// once: not graded).
type gradeState int

const (
	gradePending gradeState = iota
	gradeDone
	gradeBusy
)

// lookup returns the state of p's grade, starting its background grade
// (with run, the search gate) when it is neither done nor running.
func (g *setterGrades) lookup(p sudoku.Puzzle, run func(context.Context, func() error) error) (sudoku.Puzzle, gradeState) {
	key := p.Canonical
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done == nil {
		g.running, g.done = map[sudoku.Grid]bool{}, map[sudoku.Grid]sudoku.Puzzle{}
	}
	if q, ok := g.done[key]; ok {
		return q, gradeDone
	}
	if g.running[key] {
		return p, gradePending
	}
	if len(g.running) >= maxSetterGrading {
		return p, gradeBusy
	}
	g.running[key] = true
	go g.grade(p, run)
	return p, gradePending
}

// grade grades p with the full budget in a turn of run and keeps it.
func (g *setterGrades) grade(p sudoku.Puzzle, run func(context.Context, func() error) error) {
	err := run(context.Background(), func() error { logic.GradeDeep(context.Background(), &p); return nil })
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.running, p.Canonical)
	if err != nil { // the gate's queue timed out: the next ask tries again
		return
	}
	if len(g.done) >= maxSetterGrades {
		for k := range g.done { // forget one, any: a setter asks again
			delete(g.done, k)
			break
		}
	}
	g.done[p.Canonical] = p
}
