package web

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// fakeArchive is an in-memory Archive for handler tests. Its cursors are
// plain offsets: the real keyset paging is tested in internal/store.
type fakeArchive struct {
	mu      sync.Mutex
	puzzles []record.Puzzle // index = id-1
	pingErr error
	daily   map[string]int64 // date: id
}

func (f *fakeArchive) Submit(_ context.Context, p record.Puzzle) (record.Puzzle, bool, error) {
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

func (f *fakeArchive) Puzzle(_ context.Context, id int64) (record.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id < 1 || id > int64(len(f.puzzles)) {
		return record.Puzzle{}, record.ErrNotFound
	}
	return f.puzzles[id-1], nil
}

// fakeListed reports whether p passes q's filters.
func fakeListed(q record.ListQuery, p record.Puzzle) bool {
	return (!q.UniqueOnly || p.Unique) && (q.Band == "" || p.Band == q.Band) && (!q.Distinct || p.SameAs == nil) &&
		(q.GradeMin <= 0 || p.GradeTenths() >= q.GradeMin && p.Grade != nil) && (q.GradeMax <= 0 || p.Grade != nil && p.GradeTenths() <= q.GradeMax)
}

func (f *fakeArchive) List(_ context.Context, q record.ListQuery) (record.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var rows []record.Puzzle
	for _, p := range f.puzzles {
		if fakeListed(q, p) {
			rows = append(rows, p)
		}
	}
	key := func(p record.Puzzle) []int64 {
		switch q.Sort {
		case record.SortBacktracks:
			return []int64{p.Backtracks, p.ID}
		case record.SortSolveTime:
			return []int64{p.SolveNS, p.ID}
		case record.SortSubmitted:
			return []int64{p.ID}
		case record.SortClues:
			return []int64{int64(p.Clues), p.ID}
		case record.SortGrade:
			return []int64{p.GradeTenths(), p.ID}
		default:
			return []int64{p.Backtracks, p.SolveNS, p.ID}
		}
	}
	slices.SortFunc(rows, func(a, b record.Puzzle) int {
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
			return record.Page{}, record.ErrInvalidCursor
		}
		off = n
	}
	limit := cmp.Or(q.Limit, record.DefaultLimit)
	end := min(off+limit, len(rows))
	page := record.Page{Puzzles: rows[off:end], Total: int64(len(rows))}
	if end < len(rows) {
		page.NextCursor = strconv.Itoa(end)
	}
	if off > 0 {
		page.PrevCursor = strconv.Itoa(max(off-limit, 0))
	}
	return page, nil
}

func (f *fakeArchive) Ping(context.Context) error { return f.pingErr }

func (f *fakeArchive) Stats(context.Context) (record.Stats, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var s record.Stats
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
		bump(&s.SolveTime, record.SolveTimeBucket(p.SolveNS), 1)
		bump(&s.Clues, p.Clues, 1)
		if p.GradeVersion != "" && p.Grade != nil {
			s.Grades = append(s.Grades, record.GradeCount{Tenths: p.GradeTenths(), Technique: p.Technique, N: 1})
		}
	}
	return s, nil
}

func (f *fakeArchive) PuzzleByGivens(_ context.Context, g sudoku.Grid) (record.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.puzzles {
		if p.Givens == g {
			return p, nil
		}
	}
	return record.Puzzle{}, record.ErrNotFound
}

func (f *fakeArchive) ByCanonical(_ context.Context, c sudoku.Grid) (record.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.puzzles {
		if p.Canonical == c && p.SameAs == nil {
			return p, nil
		}
	}
	return record.Puzzle{}, record.ErrNotFound
}

func (f *fakeArchive) Equivalents(_ context.Context, q record.Puzzle) ([]record.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ps []record.Puzzle
	for _, p := range f.puzzles {
		if p.Canonical == q.Canonical {
			ps = append(ps, p)
		}
	}
	return ps, nil
}

func (f *fakeArchive) SubmitMany(ctx context.Context, ps []record.Puzzle) ([]bool, error) {
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

func (f *fakeArchive) Export(ctx context.Context, _ record.ListQuery, fn func(record.Puzzle) error) error {
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

func (f *fakeArchive) Daily(_ context.Context, date string) (record.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id, ok := f.daily[date]; ok {
		return f.puzzles[id-1], nil
	}
	return record.Puzzle{}, record.ErrNotFound
}

func (f *fakeArchive) SetDaily(_ context.Context, date string, p record.Puzzle) (record.Puzzle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id, ok := f.daily[date]; ok {
		return f.puzzles[id-1], nil
	}
	for _, id := range f.daily {
		if f.puzzles[id-1].Canonical == p.Canonical {
			return record.Puzzle{}, record.ErrDailyRepeat
		}
	}
	if f.daily == nil {
		f.daily = map[string]int64{}
	}
	f.daily[date] = p.ID
	return f.puzzles[p.ID-1], nil
}
