package store

import (
	"context"
	"database/sql"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// The refit benchmark's archive: 1,000,000 counted attempts by 25,000
// players (40 each) at 20,000 real, distinct puzzles of the Kaggle
// collection.
const (
	refitAttempts = 1_000_000
	refitPlayers  = 25_000
	refitPuzzles  = 20_000
)

// BenchmarkRatingsRefit times `sudoku ratings refit` of 1,000,000 counted
// attempts on SQLite, and reports the seconds of a refit and the peak of
// the Go heap during it (sampled every 10 ms), in MB.
func BenchmarkRatingsRefit(b *testing.B) {
	db := sqliteBackend.open(b)
	fillAttempts(b, db)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	runtime.GC()
	b.ResetTimer()
	start := time.Now()
	var sum RefitSummary
	for range b.N {
		var err error
		if sum, err = db.Refit(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	close(stop)
	wg.Wait()
	if sum.Attempts != refitAttempts {
		b.Fatalf("refit %d attempts, want %d", sum.Attempts, refitAttempts)
	}
	b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/refit")
	b.ReportMetric(float64(peak.Load())/1e6, "peak-heap-MB")
	b.ReportMetric(float64(sum.Rounds[0]+sum.Rounds[1]), "rounds")
}

// fillAttempts archives refitPuzzles puzzles and writes refitAttempts
// finished, counted attempts of refitPlayers players at them straight
// into the tables (the setup, not what is measured): each player's 40
// puzzles near their level, times from the model with noise 0.35, one in
// eight a give-up.
func fillAttempts(b *testing.B, db *DB) {
	b.Helper()
	ps := kaggle(b, db, refitPuzzles)
	keys := make([][]byte, len(ps))
	for i, p := range ps {
		keys[i] = p.Canonical.Key()
		if len(keys[i]) == 0 {
			keys[i] = p.Givens.Key()
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	now := time.Now().Add(-24 * time.Hour).UnixNano()
	err := db.write(context.Background(), func(tx *sql.Tx) error {
		for range refitPlayers {
			if _, err := tx.Exec("INSERT INTO players (created_at) VALUES (?)", now); err != nil {
				return err
			}
		}
		const rows = 500
		stmt, err := tx.Prepare("INSERT INTO attempts (player_id, puzzle_id, class_key, started_at, finished_at, outcome, seconds, hints, first, counted) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?, 1, 1), ", rows), ", "))
		if err != nil {
			return err
		}
		defer stmt.Close()
		args := make([]any, 0, rows*8)
		for n := 0; n < refitAttempts; n++ {
			player := n/40 + 1
			a := 0.6 * math.Sin(float64(player)) // a spread of abilities, repeatable
			i := (player*7919 + (n%40)*(refitPuzzles/40)) % len(ps)
			t := math.Exp(ratings.DefaultPrior.Of(ps[i].GradeTenths()) - a + 0.35*r.NormFloat64())
			outcome := "solved"
			if n%8 == 0 {
				outcome, t = "gave_up", t/2
			}
			secs := int64(math.Round(t))
			args = append(args, player, ps[i].ID, keys[i], now-secs*int64(time.Second), now, outcome, secs, int64(n%3))
			if len(args) == cap(args) {
				if _, err := stmt.Exec(args...); err != nil {
					return err
				}
				args = args[:0]
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRatingsHotFinishes finishes 200 players' attempts at one
// puzzle at once (each its own request, all durable), on SQLite and on
// PostgreSQL: the ms for all 200, and a check that nothing was lost (the
// puzzle's plays equal the counted attempts).
func BenchmarkRatingsHotFinishes(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchmarkHotFinishes(b, sqliteBackend) })
	b.Run("postgres", func(b *testing.B) {
		c := pgtest.Start(b)
		benchmarkHotFinishes(b, backend{name: "postgres", dsn: c.NewDB})
	})
}

func benchmarkHotFinishes(b *testing.B, bk backend) {
	const players = 200
	db := bk.open(b)
	pz := kaggle(b, db, 1)[0]
	var total time.Duration
	for i := range b.N {
		b.StopTimer()
		work := openAttempts(b, db, players, func(int) int64 { return pz.ID })
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		for _, w := range work {
			wg.Go(func() {
				f := account.Finish{Outcome: account.OutcomeSolved, Grid: pz.Solution.String(), ActiveSeconds: 300}
				if _, err := db.FinishAttempt(context.Background(), w.player, w.id, f); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		total += time.Since(start)
		b.StopTimer()
		p, err := db.Puzzle(context.Background(), pz.ID)
		if err != nil || p.Plays != int64(players*(i+1)) {
			b.Fatalf("plays %d, %v; want %d", p.Plays, err, players*(i+1))
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/200-finishes")
	b.ReportMetric(float64(players*b.N)/total.Seconds(), "finishes/s")
}
