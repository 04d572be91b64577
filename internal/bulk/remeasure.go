package bulk

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Stale is what Remeasure needs of the archive: the rows an older engine
// measured, and a way to store their new measures (see store.DB).
type Stale interface {
	CountStale(ctx context.Context) (int64, error)
	Stale(ctx context.Context, after int64, n int) ([]record.Puzzle, error)
	Remeasure(ctx context.Context, ps []record.Puzzle) error
}

// Ungraded is what Grade needs of the archive: the rows without a grade, and
// a way to store their grades (see store.DB).
type Ungraded interface {
	CountUngraded(ctx context.Context) (int64, error)
	LastID(ctx context.Context) (int64, error)
	Ungraded(ctx context.Context, after int64, n int) ([]record.Puzzle, error)
	SetGrades(ctx context.Context, ps []record.Puzzle) error
}

// PassOptions tune a pass over the archive.
type PassOptions struct {
	Page     int                     // rows a transaction; 0 means 2,048
	Workers  int                     // 0 means GOMAXPROCS
	Progress func(done, total int64) // called after each committed page; may be nil
}

// Remeasure rates every row measured by an older engine again with
// sudoku.Rate under opt (the canonical form and invariant measures of the
// current engine) and stores the results page by page, each page in one
// transaction, so it can be interrupted (ctx) and resumed at any point: a
// row keeps its old values until its new ones are committed. A row the engine
// cannot rate within opt's budget keeps its old values and is reported in
// the returned error after the pass; the rest are done. It returns how many
// rows it measured.
func Remeasure(ctx context.Context, db Stale, opt sudoku.Options, po PassOptions) (int64, error) {
	total, err := db.CountStale(ctx)
	if err != nil || total == 0 {
		return 0, err
	}
	var mu sync.Mutex
	var failed []error
	n, err := runPass(ctx, pass{
		total: total,
		read:  db.Stale,
		write: db.Remeasure,
		work: func(p *record.Puzzle) bool {
			r, err := record.Rate(p.Givens, opt)
			if err != nil {
				mu.Lock()
				failed = append(failed, fmt.Errorf("puzzle %d: %w", p.ID, err))
				mu.Unlock()
				return false
			}
			r.ID, r.SubmittedAt, r.Submissions = p.ID, p.SubmittedAt, p.Submissions
			if p.GradeVersion != "" && p.Canonical == r.Canonical {
				r.Grade, r.GradeFloor, r.Technique, r.GradeVersion = p.Grade, p.GradeFloor, p.Technique, p.GradeVersion
				r.GradeEP, r.GradeED, r.Techniques = p.GradeEP, p.GradeED, p.Techniques
				r.SetGradeStatus()
			}
			*p = r
			return true
		},
	}, po)
	if err == nil && len(failed) > 0 {
		err = fmt.Errorf("%d puzzles kept their old measures: %w", len(failed), errors.Join(failed...))
	}
	return n, err
}

// Grade grades every row without a grade with grade (which sets Grade,
// GradeFloor, Technique and GradeVersion) until none is left, with the
// grading pipeline (Graders: rows in id order, grades committed in small
// groups). It returns how many rows it graded. po.Page is not used.
//
// A grade belongs to the puzzle, not to the way it is written
// (logic.GradePuzzle grades the canonical form, which every row of a class
// shares), so grade runs once a class: the other rows of the class (same_as)
// that the pass meets take the grade of the first one graded. An import of
// a puzzle written twenty ways is graded once, not twenty times.
func Grade(ctx context.Context, db Ungraded, grade func(*record.Puzzle), po PassOptions) (int64, error) {
	g := &Graders{DB: db, Grade: grade, Workers: po.Workers, Progress: po.Progress}
	return g.Drain(ctx)
}

// classGrades holds the grades a pass has given, by class: the id of the
// class's first entry. Rows are graded at once on every core, so two rows
// of a new class handed out together may both be graded: the same grade
// twice, which costs only the time.
type classGrades struct {
	mu sync.Mutex
	by map[int64]classGrade
}

// classGrade is a puzzle's grade: the fields grade sets.
type classGrade struct {
	grade, ep, ed      int64 // tenths
	floor              bool
	technique, version string
	techniques         record.Techniques
}

// maxClassGrades bounds the memory of a pass over many distinct puzzles
// (about 6 MB when full): past it the memory is emptied and fills again.
const maxClassGrades = 1 << 16

// grade grades p with grade, or gives it its class's grade.
func (c *classGrades) grade(p *record.Puzzle, grade func(*record.Puzzle)) {
	if p.Rules != "" {
		// The classic solver's grade of a variant would be wrong: a
		// variant row stays without a grade until a variant grader
		// takes the rows of record.VariantUngraded.
		p.GradeVersion = ""
		p.SetVariantUngraded()
		return
	}
	class, ok := p.ID, p.Canonical != (sudoku.Grid{})
	if p.SameAs != nil {
		class = *p.SameAs
	}
	if ok {
		c.mu.Lock()
		g, known := c.by[class]
		c.mu.Unlock()
		if known {
			p.Grade, p.GradeFloor, p.Technique, p.GradeVersion = record.FromTenths(g.grade), g.floor, g.technique, g.version
			p.GradeEP, p.GradeED, p.Techniques = record.FromTenths(g.ep), record.FromTenths(g.ed), g.techniques
			p.SetGradeStatus()
			return
		}
	}
	grade(p)
	if !ok || p.GradeVersion == "" {
		return // no class: graded as written (see logic.GradePuzzle); or stopped, not graded
	}
	g := classGrade{grade: record.TenthsOf(p.Grade), ep: record.TenthsOf(p.GradeEP), ed: record.TenthsOf(p.GradeED),
		floor: p.GradeFloor, technique: p.Technique, version: p.GradeVersion, techniques: p.Techniques}
	c.mu.Lock()
	if len(c.by) >= maxClassGrades {
		clear(c.by)
	}
	c.by[class] = g
	c.mu.Unlock()
}

// pass is one walk over pending rows in id order: read a page, work on its
// rows on every core, write the page back while the next one is worked on.
type pass struct {
	total int64
	read  func(ctx context.Context, after int64, n int) ([]record.Puzzle, error)
	work  func(*record.Puzzle) bool // false: leave the row out of the page
	write func(ctx context.Context, ps []record.Puzzle) error
}

func runPass(ctx context.Context, p pass, po PassOptions) (int64, error) {
	page, workers := po.Page, po.Workers
	if page <= 0 {
		page = 2048
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var done int64
	g, ctx := errgroup.WithContext(ctx)
	pages := make(chan []record.Puzzle, 1)
	g.Go(func() error { // read and work, one page at a time
		defer close(pages)
		var after int64
		for {
			ps, err := p.read(ctx, after, page)
			if err != nil || len(ps) == 0 {
				return err
			}
			after = ps[len(ps)-1].ID
			keep := make([]bool, len(ps))
			var wg errgroup.Group
			wg.SetLimit(workers)
			for w := range workers {
				wg.Go(func() error {
					for i := w; i < len(ps); i += workers {
						keep[i] = p.work(&ps[i])
					}
					return nil
				})
			}
			_ = wg.Wait()
			out := ps[:0]
			for i := range ps {
				if keep[i] {
					out = append(out, ps[i])
				}
			}
			select {
			case pages <- out:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	})
	g.Go(func() error { // write
		for ps := range pages {
			if len(ps) > 0 {
				if err := p.write(ctx, ps); err != nil {
					return err
				}
			}
			done += int64(len(ps))
			if po.Progress != nil {
				po.Progress(done, p.total)
			}
		}
		return nil
	})
	err := g.Wait()
	return done, err
}
