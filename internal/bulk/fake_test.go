package bulk

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// fakeArchive is an in-memory Adder and Source with the store's duplicate
// rules: givens are unique; a repeat bumps the submission count through
// SubmitMany, and leaves it through AddMany.
type fakeArchive struct {
	mu      sync.Mutex
	byGiven map[sudoku.Grid]int // index into puzzles
	puzzles []record.Puzzle
	batches []int // size of every committed batch

	// beforeCommit, when set, runs at the start of every SubmitMany with the
	// number of batches committed so far; an error fails that call.
	beforeCommit func(ctx context.Context, committed int) error
}

func newFakeArchive() *fakeArchive { return &fakeArchive{byGiven: map[sudoku.Grid]int{}} }

func (a *fakeArchive) SubmitMany(ctx context.Context, ps []record.Puzzle) ([]bool, error) {
	return a.many(ctx, ps, true)
}

func (a *fakeArchive) AddMany(ctx context.Context, ps []record.Puzzle) ([]bool, error) {
	return a.many(ctx, ps, false)
}

func (a *fakeArchive) many(ctx context.Context, ps []record.Puzzle, count bool) ([]bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.beforeCommit != nil {
		if err := a.beforeCommit(ctx, len(a.batches)); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// All or nothing, like a transaction: work on copies, then swap in.
	byGiven := make(map[sudoku.Grid]int, len(a.byGiven)+len(ps))
	for k, v := range a.byGiven {
		byGiven[k] = v
	}
	puzzles := slices.Clone(a.puzzles)
	dup := make([]bool, len(ps))
	for i, p := range ps {
		if j, ok := byGiven[p.Givens]; ok {
			if count {
				puzzles[j].Submissions++
			}
			dup[i] = true
			continue
		}
		p.ID = int64(len(puzzles) + 1)
		p.Submissions = 1
		byGiven[p.Givens] = len(puzzles)
		puzzles = append(puzzles, p)
	}
	a.byGiven, a.puzzles = byGiven, puzzles
	a.batches = append(a.batches, len(ps))
	return dup, nil
}

func (a *fakeArchive) Export(ctx context.Context, q record.ListQuery, fn func(record.Puzzle) error) error {
	a.mu.Lock()
	ps := slices.Clone(a.puzzles)
	a.mu.Unlock()
	slices.SortFunc(ps, func(x, y record.Puzzle) int {
		c := compare(q.Sort, x, y)
		if q.Desc {
			c = -c
		}
		return c
	})
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func compare(s record.Sort, x, y record.Puzzle) int {
	cmp := func(a, b int64) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	var c int
	switch s {
	case record.SortDifficulty, "":
		if c = cmp(x.Backtracks, y.Backtracks); c == 0 {
			c = cmp(x.SolveNS, y.SolveNS)
		}
	case record.SortBacktracks:
		c = cmp(x.Backtracks, y.Backtracks)
	case record.SortSolveTime:
		c = cmp(x.SolveNS, y.SolveNS)
	case record.SortClues:
		c = cmp(int64(x.Clues), int64(y.Clues))
	}
	if c == 0 {
		c = cmp(x.ID, y.ID)
	}
	return c
}

var errFakeDown = errors.New("fake archive down")

// submitter hides a sink's AddMany: Import then counts repeats as
// submissions, as it does for the web server's fakes.
type submitter struct{ Sink }
