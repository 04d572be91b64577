package web

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// fakeArchive is an in-memory Archive for handler tests. Its cursors are
// plain offsets: the real keyset paging is tested in internal/store.
type fakeArchive struct {
	mu      sync.Mutex
	puzzles []sudoku.Puzzle // index = id-1
	pingErr error
	daily   map[string]int64 // date: id
}

func (f *fakeArchive) Submit(_ context.Context, p sudoku.Puzzle) (sudoku.Puzzle, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.puzzles {
		if f.puzzles[i].Givens == p.Givens {
			f.puzzles[i].Submissions++
			return f.puzzles[i], true, nil
		}
	}
	p.ID = int64(len(f.puzzles) + 1)
	p.SetGradeStatus() // and the band, as the store does
	for i := range f.puzzles {
		if f.puzzles[i].Canonical == p.Canonical && f.puzzles[i].SameAs == nil {
			id := f.puzzles[i].ID
			p.SameAs = &id
			break
		}
	}
	p.Submissions = 1
	p.SubmittedAt = time.Now().UTC()
	f.puzzles = append(f.puzzles, p)
	return p, false, nil
}

func (f *fakeArchive) Puzzle(_ context.Context, id int64) (sudoku.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id < 1 || id > int64(len(f.puzzles)) {
		return sudoku.Puzzle{}, sudoku.ErrNotFound
	}
	return f.puzzles[id-1], nil
}

// fakeListed reports whether p passes q's filters.
func fakeListed(q sudoku.ListQuery, p sudoku.Puzzle) bool {
	return (!q.UniqueOnly || p.Unique) && (q.Band == "" || p.Band == q.Band) && (!q.Distinct || p.SameAs == nil) &&
		(q.GradeMin <= 0 || p.GradeTenths() >= q.GradeMin && p.Grade != nil) && (q.GradeMax <= 0 || p.Grade != nil && p.GradeTenths() <= q.GradeMax)
}

func (f *fakeArchive) List(_ context.Context, q sudoku.ListQuery) (sudoku.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var rows []sudoku.Puzzle
	for _, p := range f.puzzles {
		if fakeListed(q, p) {
			rows = append(rows, p)
		}
	}
	key := func(p sudoku.Puzzle) []int64 {
		switch q.Sort {
		case sudoku.SortBacktracks:
			return []int64{p.Backtracks, p.ID}
		case sudoku.SortSolveTime:
			return []int64{p.SolveNS, p.ID}
		case sudoku.SortSubmitted:
			return []int64{p.ID}
		case sudoku.SortClues:
			return []int64{int64(p.Clues), p.ID}
		case sudoku.SortGrade:
			return []int64{p.GradeTenths(), p.ID}
		default:
			return []int64{p.Backtracks, p.SolveNS, p.ID}
		}
	}
	slices.SortFunc(rows, func(a, b sudoku.Puzzle) int {
		c := slices.Compare(key(a), key(b))
		if q.Desc {
			c = -c
		}
		return cmp.Compare(c, 0)
	})
	off := 0
	if q.Cursor != "" {
		n, err := strconv.Atoi(q.Cursor)
		if err != nil || n < 0 || n > len(rows) {
			return sudoku.Page{}, sudoku.ErrInvalidCursor
		}
		off = n
	}
	limit := cmp.Or(q.Limit, sudoku.DefaultLimit)
	end := min(off+limit, len(rows))
	page := sudoku.Page{Puzzles: rows[off:end], Total: int64(len(rows))}
	if end < len(rows) {
		page.NextCursor = strconv.Itoa(end)
	}
	if off > 0 {
		page.PrevCursor = strconv.Itoa(max(off-limit, 0))
	}
	return page, nil
}

func (f *fakeArchive) Ping(context.Context) error { return f.pingErr }

func (f *fakeArchive) Stats(context.Context) (sudoku.Stats, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var s sudoku.Stats
	bump := func(h *[]int64, k int, n int64) {
		for len(*h) <= k {
			*h = append(*h, 0)
		}
		(*h)[k] += n
	}
	for _, p := range f.puzzles {
		s.Total++
		if p.Unique {
			s.Unique++
		}
		s.Submissions += p.Submissions
		bump(&s.Backtracks, sudoku.BacktracksBucket(p.Backtracks), 1)
		bump(&s.SolveTime, sudoku.SolveTimeBucket(p.SolveNS), 1)
		bump(&s.Clues, p.Clues, 1)
		if p.GradeVersion != "" && p.Grade != nil {
			s.Grades = append(s.Grades, sudoku.GradeCount{Tenths: p.GradeTenths(), Technique: p.Technique, N: 1})
		}
	}
	return s, nil
}

func (f *fakeArchive) PuzzleByGivens(_ context.Context, g sudoku.Grid) (sudoku.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.puzzles {
		if p.Givens == g {
			return p, nil
		}
	}
	return sudoku.Puzzle{}, sudoku.ErrNotFound
}

func (f *fakeArchive) ByCanonical(_ context.Context, c sudoku.Grid) (sudoku.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.puzzles {
		if p.Canonical == c && p.SameAs == nil {
			return p, nil
		}
	}
	return sudoku.Puzzle{}, sudoku.ErrNotFound
}

func (f *fakeArchive) Equivalents(_ context.Context, q sudoku.Puzzle) ([]sudoku.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ps []sudoku.Puzzle
	for _, p := range f.puzzles {
		if p.Canonical == q.Canonical {
			ps = append(ps, p)
		}
	}
	return ps, nil
}

func (f *fakeArchive) SubmitMany(ctx context.Context, ps []sudoku.Puzzle) ([]bool, error) {
	dup := make([]bool, len(ps))
	for i, p := range ps {
		_, d, err := f.Submit(ctx, p)
		if err != nil {
			return nil, err
		}
		dup[i] = d
	}
	return dup, nil
}

func (f *fakeArchive) Export(ctx context.Context, _ sudoku.ListQuery, fn func(sudoku.Puzzle) error) error {
	f.mu.Lock()
	ps := slices.Clone(f.puzzles)
	f.mu.Unlock()
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

func (f *fakeArchive) Daily(_ context.Context, date string) (sudoku.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id, ok := f.daily[date]; ok {
		return f.puzzles[id-1], nil
	}
	return sudoku.Puzzle{}, sudoku.ErrNotFound
}

func (f *fakeArchive) SetDaily(_ context.Context, date string, p sudoku.Puzzle) (sudoku.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id, ok := f.daily[date]; ok {
		return f.puzzles[id-1], nil
	}
	for _, id := range f.daily {
		if f.puzzles[id-1].Canonical == p.Canonical {
			return sudoku.Puzzle{}, sudoku.ErrDailyRepeat
		}
	}
	if f.daily == nil {
		f.daily = map[string]int64{}
	}
	f.daily[date] = p.ID
	return f.puzzles[p.ID-1], nil
}
