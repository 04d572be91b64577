package archive

// setter.go is the setter's analysis, and its grade past a request's
// budget (issue 34: a hard puzzle got "—" and no reason). The analysis
// grades within logic.RequestBudget; a unique puzzle that needs more is
// answered "grade_status": "pending" and graded here in the background
// with the full budget, in a turn of the search gate, nothing stored; the
// setter's page asks again and gets the figures. The results are kept in
// memory by canonical form, a bounded number of them. Stop cancels the
// grades still running and waits for them.

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Analyse is the setter's analysis of g (POST /api/analyse, /setter),
// nothing stored: its solutions; for one solution the
// givens that could go (a search per given), the grade with its figures and
// techniques; its canonical form and the archived puzzle of the same class.
// A grid without a solution or with several is answered as such, with no
// grade; a grid that breaks the rules, or one beyond the search's budget, is
// an error.
func (ar *Archive) Analyse(ctx context.Context, g sudoku.Grid) (record.Analysis, error) {
	a := record.Analysis{Clues: g.Clues(), Symmetry: sudoku.SymmetryOf(g), Redundant: []int{}, GradeStatus: record.GradeNone}
	p, err := ar.Rate(ctx, g, false)
	switch {
	case errors.Is(err, sudoku.ErrNoSolution):
		return a, nil
	case err != nil:
		return a, err
	}
	a.Solutions, a.Unique = p.Solutions, p.Unique
	canon := p.Canonical
	a.Canonical = &canon
	var same record.Puzzle
	if canon != (sudoku.Grid{}) {
		same, err = ar.store.ByCanonical(ctx, canon)
		switch {
		case err == nil:
			a.SameAs = &same.ID
		case !errors.Is(err, record.ErrNotFound):
			return a, fmt.Errorf("look up the canonical form: %w", err)
		}
	}
	if !p.Unique {
		return a, nil
	}
	// The grade belongs to the puzzle, however it is written: an archived
	// one graded by this solver gives its own; another is graded here,
	// within a request's budget, as POST /api/solve does.
	// One that needs more than a request's budget is graded in the
	// background (setter.go): "pending" now, the figures when asked
	// again.
	// The request's own searches (the grade within its budget, the
	// redundant givens) take one turn of the gate, and only then may a
	// background grading take the gate: on a server of one search slot the
	// request would otherwise queue behind the grading it started.
	a.GradeStatus = record.GradeDone
	archived := a.SameAs != nil && same.Grade != nil && same.GradeVersion == logic.Version
	within := true
	err = ar.Searching(ctx, func() error {
		if !archived {
			within = logic.GradeWithin(&p, logic.RequestBudget)
		}
		var err error
		a.Redundant, err = sudoku.Redundant(g, p.Solution, ar.SolveOptions(ctx))
		return err
	})
	if err != nil {
		return a, err
	}
	switch {
	case archived:
		p.Grade, p.GradeFloor, p.GradeEP, p.GradeED, p.Technique, p.Techniques = same.Grade, same.GradeFloor, same.GradeEP, same.GradeED, same.Technique, same.Techniques
	case !within:
		var st gradeState
		p, st = ar.setter.lookup(p, ar)
		if st != gradeDone { // busy too: the next ask starts it
			a.GradeStatus = record.GradePending
		}
	}
	a.Grade, a.GradeFloor, a.GradeEP, a.GradeED = p.Grade, p.GradeFloor, p.GradeEP, p.GradeED
	a.Technique, a.Techniques = p.Technique, p.Techniques
	minimal := len(a.Redundant) == 0
	a.Minimal = &minimal
	return a, nil
}

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
	done    map[sudoku.Grid]record.Puzzle // graded: the puzzle with its grade figures
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
func (g *setterGrades) lookup(p record.Puzzle, a *Archive) (record.Puzzle, gradeState) {
	key := p.Canonical
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done == nil {
		g.running, g.done = map[sudoku.Grid]bool{}, map[sudoku.Grid]record.Puzzle{}
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
	a.jobs.Add(1)
	go func() {
		defer a.jobs.Done()
		g.grade(a.bg, p, a.Searching)
	}()
	return p, gradePending
}

// grade grades p with the full budget in a turn of run and keeps it,
// unless ctx (the archive's background, cancelled by Stop) ends first.
func (g *setterGrades) grade(ctx context.Context, p record.Puzzle, run func(context.Context, func() error) error) {
	err := run(ctx, func() error {
		if !logic.GradeDeep(ctx, &p) {
			return ctx.Err()
		}
		return nil
	})
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.running, p.Canonical)
	if err != nil { // the gate's queue timed out, or the archive stopped: the next ask tries again
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
