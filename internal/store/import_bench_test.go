package store

import (
	"context"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

var seventeen struct {
	once sync.Once
	ps   []record.Puzzle
}

// ratedSeventeen rates the 17-clue collection once.
func ratedSeventeen(b *testing.B) []record.Puzzle {
	seventeen.once.Do(func() {
		for _, line := range puzzletest.Lines(b, puzzletest.SeventeenClue, 0) {
			g, err := sudoku.Parse(line[:81])
			if err != nil {
				continue
			}
			p, err := record.Rate(g, sudoku.Options{})
			if err != nil {
				continue
			}
			seventeen.ps = append(seventeen.ps, p)
		}
	})
	return seventeen.ps
}

// BenchmarkWrite17 writes the rated 17-clue collection (49,158 puzzles)
// into a new archive the way `sudoku import` does, in batches of 4,096 fed
// in parts of 2,048: the store's share of an import, without the rating.
// It runs on SQLite and on a throwaway PostgreSQL cluster.
func BenchmarkWrite17(b *testing.B) {
	ps := ratedSeventeen(b)
	run := func(b *testing.B, dsn func(testing.TB) string) {
		for b.Loop() {
			b.StopTimer()
			db := MustOpenDBAt(b, dsn(b))
			b.StartTimer()
			ctx := context.Background()
			for start := 0; start < len(ps); start += 4096 {
				bt, err := db.Begin(ctx)
				if err != nil {
					b.Fatal(err)
				}
				end := min(start+4096, len(ps))
				for p := start; p < end; p += 2048 {
					if err := bt.Add(ps[p:min(p+2048, end)]); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := bt.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "puzzles/s")
	}
	b.Run("sqlite", func(b *testing.B) { run(b, sqliteBackend.dsn) })
	b.Run("postgres", func(b *testing.B) { run(b, pgtest.Start(b).NewDB) })
}
