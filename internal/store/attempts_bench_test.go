package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// benchClients is how many players finish attempts at once.
const benchClients = 32

// kaggle archives the first n puzzles of the easy Kaggle collection (real,
// distinct puzzles) and returns them as stored.
func kaggle(tb testing.TB, db *DB, n int) []record.Puzzle {
	tb.Helper()
	var ps []record.Puzzle
	for _, line := range puzzletest.Lines(tb, puzzletest.Kaggle, n) {
		g, err := sudoku.Parse(line[:81])
		if err != nil {
			tb.Fatal(err)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := db.AddMany(context.Background(), ps); err != nil {
		tb.Fatal(err)
	}
	stored := make([]record.Puzzle, len(ps))
	for i, p := range ps {
		var err error
		if stored[i], err = db.PuzzleByGivens(context.Background(), p.Givens); err != nil {
			tb.Fatal(err)
		}
	}
	return stored
}

// openAttempt is a benchmark's open attempt: its player and id.
type openAttempt struct{ player, id, puzzle int64 }

// openAttempts makes n players, each with an open attempt at the puzzle
// puzzleOf(i), started an hour ago, in one transaction: the setup, not
// what is measured.
func openAttempts(tb testing.TB, db *DB, n int, puzzleOf func(int) int64) []openAttempt {
	tb.Helper()
	out := make([]openAttempt, n)
	start := time.Now().Add(-time.Hour).UnixNano()
	err := db.write(context.Background(), func(tx *sql.Tx) error {
		for i := range out {
			o := &out[i]
			o.puzzle = puzzleOf(i)
			if err := tx.QueryRow(db.d.sql("INSERT INTO players (created_at) VALUES (?) RETURNING id"), start).Scan(&o.player); err != nil {
				return err
			}
			err := tx.QueryRow(db.d.sql("INSERT INTO attempts (player_id, puzzle_id, class_key, started_at) "+
				"SELECT ?, id, coalesce(canonical_key, givens_key), ? FROM puzzles WHERE id = ? RETURNING id"), o.player, start, o.puzzle).Scan(&o.id)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkFinishAttempts finishes attempts from 32 players at once, each
// a durable commit (SQLite, synchronous=FULL): all at one puzzle (hot) and
// at 1,024 distinct puzzles (spread). It reports finishes/s and the mean
// number of finishes a group commit carried.
func BenchmarkFinishAttempts(b *testing.B) {
	for _, mode := range []string{"hot", "spread"} {
		b.Run(mode, func(b *testing.B) { benchmarkFinish(b, sqliteBackend, mode == "hot") })
	}
}

// BenchmarkFinishAttemptsPostgres is BenchmarkFinishAttempts on a
// throwaway PostgreSQL cluster.
func BenchmarkFinishAttemptsPostgres(b *testing.B) {
	c := pgtest.Start(b)
	for _, mode := range []string{"hot", "spread"} {
		b.Run(mode, func(b *testing.B) { benchmarkFinish(b, backend{name: "postgres", dsn: c.NewDB}, mode == "hot") })
	}
}

func benchmarkFinish(b *testing.B, bk backend, hot bool) {
	db := bk.open(b)
	ps := kaggle(b, db, 1024)
	solution := map[int64]string{}
	for _, p := range ps {
		solution[p.ID] = p.Solution.String()
	}
	work := openAttempts(b, db, b.N, func(i int) int64 {
		if hot {
			return ps[0].ID
		}
		return ps[i%len(ps)].ID
	})
	groups0, grouped0 := db.finishes.groups.Load(), db.finishes.grouped.Load()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range benchClients {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(work) {
					return
				}
				w := work[i]
				f := account.Finish{Outcome: account.OutcomeSolved, Grid: solution[w.puzzle], ActiveSeconds: 300, Hints: 1, Techniques: []string{"Hidden Single"}}
				if _, err := db.FinishAttempt(context.Background(), w.player, w.id, f); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "finishes/s")
	if g := db.finishes.groups.Load() - groups0; g > 0 {
		b.ReportMetric(float64(db.finishes.grouped.Load()-grouped0)/float64(g), "finishes/commit")
	}
}
