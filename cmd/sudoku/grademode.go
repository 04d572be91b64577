package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// gradeMode is --grade of `sudoku solve --json` and `sudoku import`: how
// much work the human-style grade may cost (issue 45: grading every
// puzzle to the end took 100 of the hardest puzzles from 5 s to 411 s,
// with no way to ask for less).
type gradeMode string

// The grade modes, dearest first.
const (
	// gradeFull is the archive's graders' grade (logic.DeepBudget):
	// exact, but seconds for each of the hardest puzzles (nested forcing
	// chains). The default, as before the flag.
	gradeFull gradeMode = "full"
	// gradeQuick stops at logic.DefaultBudget (milliseconds a puzzle):
	// a puzzle past it gets a floor (solve: "grade_floor": true, "at
	// least"), or (import) stays pending for `sudoku serve`'s graders.
	gradeQuick gradeMode = "quick"
	// gradeNone grades nothing: solve prints the measures alone
	// ("grade_status": "pending"); import leaves every grade to `sudoku
	// serve`'s graders.
	gradeNone gradeMode = "none"
)

// gradeUsage is --grade's help, what each mode costs.
const gradeUsage = "how far to grade (the human-style grade): `full` (the archive's grade, exact; " +
	"seconds each for the hardest puzzles), quick (milliseconds each; past that a floor, \"at least\"" +
	", or for import left pending for `sudoku serve`) or none (no grade: the measures alone; import leaves the grades to serve)"

func (m *gradeMode) String() string { return string(*m) }

func (m *gradeMode) Set(s string) error {
	switch g := gradeMode(s); g {
	case gradeFull, gradeQuick, gradeNone:
		*m = g
		return nil
	}
	return fmt.Errorf("use full, quick or none")
}

// grade grades p (solve --json) as m asks; ctx's end leaves it ungraded.
func (m gradeMode) grade(ctx context.Context, p *record.Puzzle) {
	switch m {
	case gradeQuick:
		logic.GradePuzzle(p) // DefaultBudget: a floor past it
	case gradeNone:
		p.SetGradeStatus()
	default:
		logic.GradeDeep(ctx, p) // ungraded when ctx ends first
	}
}

// importGraders is the foreground grading of an import under m (nil for
// none), with the progress bar b: full grades every pending puzzle as
// serve's graders do; quick grades those done within DefaultBudget and
// leaves the rest pending, for serve.
func (m gradeMode) importGraders(db *store.DB, b *countBar) *bulk.Graders {
	g := &bulk.Graders{DB: db, Grade: logic.GradePuzzle, GradeCtx: logic.GradeDeep, Progress: b.set}
	switch m {
	case gradeNone:
		return nil
	case gradeQuick:
		skip := &skipUngraded{db: db, skip: map[int64]bool{}}
		g.DB = skip
		g.GradeCtx = func(_ context.Context, p *record.Puzzle) bool {
			if logic.GradeWithin(p, logic.DefaultBudget) {
				return true
			}
			skip.add(p.ID) // not committed: pending for serve
			return false
		}
	}
	return g
}

// skipUngraded hides the rows a quick grading left pending from the
// graders' further looks, so that its drain ends: they stay pending in the
// archive. It is not a bulk.Claims: the foreground import grades alone.
type skipUngraded struct {
	db   bulk.Ungraded
	mu   sync.Mutex
	skip map[int64]bool
}

func (s *skipUngraded) add(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skip[id] = true
}

func (s *skipUngraded) LastID(ctx context.Context) (int64, error) { return s.db.LastID(ctx) }

func (s *skipUngraded) SetGrades(ctx context.Context, ps []record.Puzzle) error {
	return s.db.SetGrades(ctx, ps)
}

func (s *skipUngraded) CountUngraded(ctx context.Context) (int64, error) {
	n, err := s.db.CountUngraded(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(0, n-int64(len(s.skip))), err
}

// Ungraded is the archive's page of pending rows after after, less the
// rows skipped; a page of skipped rows alone reads on, so that the
// graders never take it for the end of the queue.
func (s *skipUngraded) Ungraded(ctx context.Context, after int64, n int) ([]record.Puzzle, error) {
	for {
		ps, err := s.db.Ungraded(ctx, after, n)
		if err != nil || len(ps) == 0 {
			return ps, err
		}
		kept := s.unskipped(ps)
		if len(kept) > 0 || len(ps) < n {
			return kept, nil
		}
		after = ps[len(ps)-1].ID
	}
}

// unskipped is ps without the rows skipped.
func (s *skipUngraded) unskipped(ps []record.Puzzle) []record.Puzzle {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := ps[:0]
	for _, p := range ps {
		if !s.skip[p.ID] {
			kept = append(kept, p)
		}
	}
	return kept
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// solveProgress is `sudoku solve`'s progress on a terminal: a bar of the
// puzzles done, shown once the run has lasted solveProgressAfter (a
// quick run prints nothing more), ending with its line of totals. nil
// (stderr not a terminal) does nothing.
type solveProgress struct {
	w     io.Writer
	start time.Time
	done  int64
	bar   *countBar
}

// solveProgressAfter is how long a run goes before it shows progress.
const solveProgressAfter = time.Second

func newSolveProgress(w io.Writer) *solveProgress {
	if !isTerminal(w) {
		return nil
	}
	return &solveProgress{w: w, start: time.Now()}
}

// add counts n puzzles more; notes says stderr is about to be written,
// so the bar is cleared first.
func (p *solveProgress) add(n int, notes bool) {
	if p == nil {
		return
	}
	p.done += int64(n)
	if p.bar == nil && time.Since(p.start) >= solveProgressAfter {
		p.bar = countBarTo(p.w, "solving", "puzzles")
		p.bar.start = p.start
	}
	if p.bar == nil {
		return
	}
	if notes {
		_ = p.bar.bar.Clear()
	}
	p.bar.set(p.done, -1)
}

func (p *solveProgress) finish() {
	if p != nil {
		p.bar.finish()
	}
}

// saysPending tells how many puzzles wait for their grade after an
// import that left them (--grade quick or none): `sudoku serve` grades
// them in the background.
func saysPending(ctx context.Context, e *env, db *store.DB) error {
	n, err := db.CountUngraded(ctx)
	if err != nil {
		return fmt.Errorf("import: count the grades pending: %w", err)
	}
	if n > 0 {
		fmt.Fprintf(e.stderr, "grades pending: %s; `sudoku serve` grades them in the background (or import again with --grade full)\n",
			plural(n, "puzzle", "puzzles"))
	}
	return nil
}

// abandon clears the bar without its line of totals (nothing was done).
func (b *countBar) abandon() {
	if b != nil {
		_ = b.bar.Clear()
	}
}
