package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// servedClients is how many players BenchmarkFinishServed runs at once.
const servedClients = 32

// BenchmarkFinishServed is BoxedScaleOut/finish without the boxes, in one
// process: each op is a player's start and finish of an attempt at a
// puzzle not played before (a counted first attempt with the model's
// update), POST /api/attempts then POST /api/attempts/{id}, over HTTP on
// loopback through the real router and store, from 32 players with a
// cookie jar each; on SQLite and on a throwaway PostgreSQL cluster. It
// reports finishes/s, the process's CPU per op (server and load generator
// together: run it with -cpuprofile to see the server's part) and, on
// PostgreSQL, its backends' CPU per op (read from /proc, so Linux only).
// A warm-up of 200 ops comes first. With -box.statements it logs
// PostgreSQL's statements per op, as BoxedScaleOut does.
//
//	go test ./cmd/sudoku -run '^$' -bench FinishServed -benchtime 1500x [-args -box.statements]
func BenchmarkFinishServed(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		benchmarkFinishServed(b, filepath.Join(b.TempDir(), "sudoku.db"), 0)
	})
	b.Run("postgres", func(b *testing.B) {
		if _, err := pgtest.Bin(); err != nil {
			b.Skipf("no PostgreSQL server binaries: %v", err)
		}
		c := pgtest.Start(b)
		if *boxStmts {
			enableStatements(b, c)
		}
		pm, err := c.PostmasterPID()
		if err != nil {
			b.Fatal(err)
		}
		benchmarkFinishServed(b, c.NewDB(b), pm)
	})
}

// servedWarmup is how many ops BenchmarkFinishServed runs before it
// measures.
const servedWarmup = 200

func benchmarkFinishServed(b *testing.B, dsn string, postmaster int) {
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	plays := archivePlays(b, db, servedWarmup+b.N)
	secret, err := db.Secret(ctx)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(web.New(web.AllParts(db), web.Config{Logger: slog.New(slog.DiscardHandler), CSRFSecret: secret}))
	defer srv.Close()
	urls := []string{srv.URL}
	op := finishOp(plays)
	servedLoad(b, urls, servedWarmup, op)
	if postmaster != 0 {
		analyze(b, dsn)
		resetStatements(b, dsn)
	}
	cpu0, pg0 := processCPU(), backendsCPU(postmaster)
	start := time.Now()
	servedLoad(b, urls, b.N, func(client *http.Client, url string, i int) error { return op(client, url, servedWarmup+i) })
	elapsed := time.Since(start)
	cpu1, pg1 := processCPU(), backendsCPU(postmaster)
	if postmaster != 0 {
		logStatements(b, dsn, b.N)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "finishes/s")
	b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/float64(b.N), "process-cpu-ms/op")
	if postmaster != 0 {
		b.ReportMetric(float64((pg1-pg0).Microseconds())/1000/float64(b.N), "pg-cpu-ms/op")
	}
}

// archivePlays archives the first n puzzles of the Kaggle collection,
// rated, and returns them as plays.
func archivePlays(b *testing.B, db *store.DB, n int) []play {
	b.Helper()
	lines := puzzletest.Lines(b, puzzletest.Kaggle, n)
	if len(lines) < n {
		b.Fatalf("%d puzzles asked for; the collection holds %d", n, len(lines))
	}
	ps := make([]record.Puzzle, 0, n)
	for _, line := range lines {
		g, err := sudoku.Parse(line[:81])
		if err != nil {
			b.Fatal(err)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := db.AddMany(context.Background(), ps); err != nil {
		b.Fatal(err)
	}
	plays := make([]play, n)
	for i, p := range ps {
		stored, err := db.PuzzleByGivens(context.Background(), p.Givens)
		if err != nil {
			b.Fatal(err)
		}
		plays[i] = play{id: stored.ID, solution: stored.Solution.String()}
	}
	return plays
}

// servedLoad runs n ops from servedClients players (a cookie jar each)
// and fails b on the first error.
func servedLoad(b *testing.B, urls []string, n int, op boxOp) {
	transport := &http.Transport{MaxIdleConnsPerHost: servedClients, MaxConnsPerHost: servedClients}
	defer transport.CloseIdleConnections()
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for c := range servedClients {
		jar, _ := cookiejar.New(nil)
		client := &http.Client{Transport: transport, Jar: jar}
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || firstErr.Load() != nil {
					return
				}
				if err := op(client, urls[c%len(urls)], i); err != nil {
					firstErr.CompareAndSwap(nil, err)
				}
			}
		})
	}
	wg.Wait()
	if err := firstErr.Load(); err != nil {
		b.Fatal(err)
	}
}

// processCPU is the CPU this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// backendsCPU is the CPU used so far by the PostgreSQL postmaster pm, its
// live children (the backends) and its children that ended, from /proc;
// 0 without pm or /proc.
func backendsCPU(pm int) time.Duration {
	if pm == 0 {
		return 0
	}
	const tick = 10 * time.Millisecond // USER_HZ, 100 on Linux
	entries, _ := os.ReadDir("/proc")
	var ticks int64
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The fields after the command's closing parenthesis: state (3),
		// ppid (4), ... utime (14), stime (15), cutime (16), cstime (17).
		s := string(raw)
		fs := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fs) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(fs[1])
		if pid != pm && ppid != pm {
			continue
		}
		for _, k := range []int{11, 12} {
			v, _ := strconv.ParseInt(fs[k], 10, 64)
			ticks += v
		}
		if pid == pm {
			for _, k := range []int{13, 14} {
				v, _ := strconv.ParseInt(fs[k], 10, 64)
				ticks += v
			}
		}
	}
	return time.Duration(ticks) * tick
}
