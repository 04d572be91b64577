package logic

import (
	"context"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Version names the grades this solver gives. Bump it whenever a change to
// the ladder, the ratings or the budget can change a puzzle's grade: the
// archive grades its puzzles again on the next start.
const Version = "6"

// GradePuzzle grades an archived or rated puzzle p: it sets p.Grade,
// p.GradeFloor, p.Technique and p.GradeVersion, and p.Band with the grade. The path graded is the one
// of p's canonical form, so every way of writing a puzzle gets the same
// grade. A puzzle with several solutions gets no grade (nil).
func GradePuzzle(p *record.Puzzle) {
	gradeWithin(p, 0)
}

// GradeDeep grades p like GradePuzzle with the graders' budget
// (DeepBudget: the nested forcing chains of the hardest puzzles, seconds
// for some), for the archive's graders, `sudoku solve` and the setter. When
// ctx ends first it leaves p ungraded (GradeVersion "") and reports false:
// the puzzle stays pending for the next grading.
func GradeDeep(ctx context.Context, p *record.Puzzle) bool {
	clearGrade(p, Version)
	if !p.Unique {
		return true
	}
	c := p.Canonical
	if c == (sudoku.Grid{}) {
		c = p.Givens
	}
	r := solveFrom(newBoard(c), Options{Budget: DeepBudget, Stop: ctx.Done()})
	if r.Stopped {
		clearGrade(p, "")
		return false
	}
	setGrade(p, r)
	return true
}

// RequestBudget is the work a request may spend on a grade before it
// answers (a tenth of DefaultBudget: about a quarter of a second on one
// core for a puzzle that runs out of it, such as Inkala's): most puzzles are
// graded well within it.
const RequestBudget = DefaultBudget / 10

// GradeWithin grades p like GradePuzzle, but within budget units of work.
// If the solver stops before the end, p is left ungraded (GradeVersion "")
// for a grading with the full budget later (the archive's background
// grader), and GradeWithin reports false.
func GradeWithin(p *record.Puzzle, budget int64) bool {
	gradeWithin(p, budget)
	if p.GradeFloor {
		clearGrade(p, "")
		p.GradeStatus = record.GradeNone // none within this budget
		return false
	}
	return true
}

func gradeWithin(p *record.Puzzle, budget int64) {
	clearGrade(p, Version)
	if !p.Unique {
		return
	}
	c := p.Canonical
	if c == (sudoku.Grid{}) {
		c = p.Givens // a row not measured by engine 2 yet: grade it as written
	}
	setGrade(p, solveFrom(newBoard(c), Options{Budget: budget}))
}

// Explain returns the logical path of an archived puzzle p, written as p is
// written: the path of p's canonical form (the one GradeDeep graded),
// mapped back onto p's grid cell by cell and digit by digit. It fails with
// ErrMultipleSolutions for a puzzle with several solutions.
func Explain(p record.Puzzle) (Result, error) {
	if !p.Unique {
		return Result{}, ErrMultipleSolutions
	}
	c, t := sudoku.CanonicalSolved(p.Givens, p.Solution)
	r := solveFrom(newBoard(c), Options{Budget: DeepBudget}) // the graders' path
	back := t.Inverse()
	cell := back.Cell
	digit := func(d int) int { return int(back.Digit(uint8(d))) }
	for i := range r.Steps {
		r.Steps[i] = r.Steps[i].Map(cell, digit)
	}
	return r, nil
}

// Reveal is the step of a hint past the solver's reach: the solution's digit
// in one cell, with no logic behind it.
func Reveal(cell, digit int) Step {
	return Step{
		Technique:  "Reveal",
		Cells:      []int{cell},
		Placements: []Candidate{{Cell: cell, Digit: digit}},
		Text:       fmt.Sprintf("No step within the solver's reach from here: r%dc%d is %d.", cell/9+1, cell%9+1, digit),
	}
}
