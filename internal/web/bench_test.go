package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// nullArchive accepts everything at once and keeps nothing, so the
// benchmarks measure the HTTP layer and the engine, not a store.
type nullArchive struct {
	lastID atomic.Int64
	page   record.Page
	stats  record.Stats
}

func (n *nullArchive) Submit(_ context.Context, p record.Puzzle) (record.Puzzle, bool, error) {
	p.ID = n.lastID.Add(1)
	p.Submissions = 1
	p.SubmittedAt = time.Now().UTC()
	return p, false, nil
}

func (n *nullArchive) Puzzle(context.Context, int64) (record.Puzzle, error) {
	return record.Puzzle{}, record.ErrNotFound
}

func (n *nullArchive) List(context.Context, record.ListQuery) (record.Page, error) {
	return n.page, nil
}
func (n *nullArchive) Ping(context.Context) error { return nil }
func (n *nullArchive) SubmitMany(_ context.Context, ps []record.Puzzle) ([]bool, error) {
	return make([]bool, len(ps)), nil
}
func (n *nullArchive) Export(context.Context, record.ListQuery, func(record.Puzzle) error) error {
	return nil
}

func (n *nullArchive) Stats(context.Context) (record.Stats, error) { return n.stats, nil }
func (n *nullArchive) PuzzleByGivens(context.Context, sudoku.Grid) (record.Puzzle, error) {
	return record.Puzzle{}, record.ErrNotFound
}
func (n *nullArchive) ByCanonical(context.Context, sudoku.Grid) (record.Puzzle, error) {
	return record.Puzzle{}, record.ErrNotFound
}
func (n *nullArchive) Daily(context.Context, string) (record.Puzzle, error) {
	return record.Puzzle{}, record.ErrNotFound
}
func (n *nullArchive) SetDaily(_ context.Context, _ string, p record.Puzzle) (record.Puzzle, error) {
	return p, nil
}
func (n *nullArchive) Equivalents(_ context.Context, p record.Puzzle) ([]record.Puzzle, error) {
	return []record.Puzzle{p}, nil
}

// BenchmarkSubmit posts distinct easy puzzles through the full router and
// middleware (rate limit off) from parallel clients.
func BenchmarkSubmit(b *testing.B) {
	s := New(partsOf(&nullArchive{}), Config{Logger: slog.New(slog.DiscardHandler)})
	bodies := make([]string, 1000)
	for i := range bodies {
		bodies[i] = puzzleBody(relabel(easy, i))
	}
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			rec := serve(s, httptestRequest(http.MethodPost, "/api/puzzles", bodies[i%int64(len(bodies))]))
			if rec.Code != http.StatusCreated {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkList answers a page of 20 puzzles through the full router: the
// HTTP and JSON cost of a listing, without a store.
func BenchmarkList(b *testing.B) {
	arch := &nullArchive{}
	for i := range record.DefaultLimit {
		g, _ := sudoku.Parse(relabel(easy, i))
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			b.Fatal(err)
		}
		p.ID, p.Submissions, p.SubmittedAt = int64(i+1), 1, time.Now().UTC()
		arch.page.Puzzles = append(arch.page.Puzzles, p)
	}
	arch.page.NextCursor, arch.page.Total = "eyJrIjpbMSwyXX0", 1_000_000
	s := New(partsOf(arch), Config{Logger: slog.New(slog.DiscardHandler)})
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := serve(s, httptestRequest(http.MethodGet, "/api/puzzles?sort=solve_time&order=asc&limit=20&cursor=eyJrIjpbMSwyXX0", ""))
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// millionStats is what the stats of a million-puzzle archive look like to
// the page: every histogram bucket filled, as the store's benchmark archive
// fills them (backtracks exponential with mean 40, solve times from 20 µs).
func millionStats() record.Stats {
	s := record.Stats{Total: 1_000_000, Unique: 970_000, Submissions: 1_500_000}
	bump := func(h *[]int64, k int, n int64) {
		for len(*h) <= k {
			*h = append(*h, 0)
		}
		(*h)[k] += n
	}
	for i := range int64(1_000_000) {
		bt := (i * 7919) % 400
		bump(&s.Backtracks, sudoku.BacktracksBucket(bt*bt/100), 1)
		bump(&s.SolveTime, record.SolveTimeBucket(20_000+bt*bt*40), 1)
		bump(&s.Clues, 17+int(i%40), 1)
	}
	return s
}

// BenchmarkStatsPage renders GET /stats through the full router for the
// stats of a million puzzles: the page's cost above the store's read
// (internal/store's BenchmarkStats measures that on a real million-puzzle
// file).
func BenchmarkStatsPage(b *testing.B) {
	s := New(partsOf(&nullArchive{stats: millionStats()}), Config{Logger: slog.New(slog.DiscardHandler)})
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/stats", nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}
