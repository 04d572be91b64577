package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
)

// The listing benchmarks run against an archive of archiveRows synthetic
// puzzles, built once per run by a child process (so that the build's page
// cache does not count in this process's memory) in a temporary directory.
// Set SUDOKU_BENCH_ARCHIVE to a file path to keep the archive there between
// runs.
const archiveRows = 1_000_000

var benchArchive struct {
	once sync.Once
	dir  string // removed by TestMain when temporary
	path string
	err  error
}

func TestMain(m *testing.M) {
	if path := os.Getenv("SUDOKU_BUILD_ARCHIVE"); path != "" {
		rows, _ := strconv.Atoi(os.Getenv("SUDOKU_BUILD_ROWS"))
		if err := buildArchive(path, rows); err != nil {
			fmt.Fprintln(os.Stderr, "build archive:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	pgtest.StopShared()
	if benchArchive.dir != "" {
		os.RemoveAll(benchArchive.dir)
	}
	os.Exit(code)
}

// millionArchive returns the path of the benchmark archive, building it on
// first use.
func millionArchive(b *testing.B) string {
	b.Helper()
	benchArchive.once.Do(func() {
		path := os.Getenv("SUDOKU_BENCH_ARCHIVE")
		if path != "" {
			if _, err := os.Stat(path); err == nil {
				benchArchive.path = path
				return
			}
		} else {
			dir, err := os.MkdirTemp("", "sudoku-bench-")
			if err != nil {
				benchArchive.err = err
				return
			}
			benchArchive.dir = dir
			path = filepath.Join(dir, "archive.db")
		}
		start := time.Now()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SUDOKU_BUILD_ARCHIVE="+path, "SUDOKU_BUILD_ROWS="+strconv.Itoa(archiveRows))
		if out, err := cmd.CombinedOutput(); err != nil {
			benchArchive.err = fmt.Errorf("%v: %s", err, out)
			return
		}
		fmt.Fprintf(os.Stderr, "built an archive of %d puzzles in %v\n", archiveRows, time.Since(start).Round(time.Millisecond))
		benchArchive.path = path
	})
	if benchArchive.err != nil {
		b.Fatal(benchArchive.err)
	}
	return benchArchive.path
}

// buildArchive creates the schema at path with Open, then fills it with
// storetest.BuildArchive.
func buildArchive(path string, rows int) error {
	db, err := Open(context.Background(), path)
	if err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return storetest.BuildArchive(path, rows)
}

// rssMB reads the resident set size of this process from /proc.
func rssMB(b *testing.B) float64 {
	b.Helper()
	mb, err := storetest.ProcStatusMB("VmRSS")
	if err != nil {
		b.Skip(err)
	}
	return mb
}

// BenchmarkSubmit submits new puzzles from many goroutines at once, each
// durably committed (synchronous=FULL) before it returns. submits/s is the
// throughput; puzzles/commit shows how many submissions each group commit
// carried.
func BenchmarkSubmit(b *testing.B) { benchmarkSubmit(b, sqliteBackend) }

// BenchmarkSubmitPostgres is BenchmarkSubmit on a throwaway PostgreSQL
// cluster.
func BenchmarkSubmitPostgres(b *testing.B) {
	benchmarkSubmit(b, backend{name: "postgres", dsn: pgtest.Start(b).NewDB})
}

func benchmarkSubmit(b *testing.B, bk backend) {
	procs := runtime.GOMAXPROCS(0)
	for _, perProc := range []int{1, 8, 32, 128} {
		// RunParallel starts parallelism × GOMAXPROCS goroutines.
		b.Run(fmt.Sprintf("goroutines=%d", perProc*procs), func(b *testing.B) {
			db := bk.open(b)
			var next atomic.Int64
			ctx := context.Background()
			b.SetParallelism(perProc)
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					n := next.Add(1)
					if _, _, err := db.Submit(ctx, synthetic(n, n%100, n, 1)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "submits/s")
			if n := db.batches.Load(); n > 0 {
				b.ReportMetric(float64(db.batched.Load())/float64(n), "puzzles/commit")
			}
		})
	}
}

// BenchmarkList lists a page of 20 from the million-puzzle archive in every
// order and direction: the first page, and page 10,000 by cursor. ns/op is
// the cost of one request to the store.
func BenchmarkList(b *testing.B) {
	db := MustOpenDBAt(b, millionArchive(b))
	ctx := context.Background()
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			q := record.ListQuery{Sort: s, Desc: desc, Limit: 20}
			deep := q
			deep.Cursor = cursorAtRow(b, db, q, 10_000*20-1)
			dir := "asc"
			if desc {
				dir = "desc"
			}
			for _, c := range []struct {
				name string
				q    record.ListQuery
			}{{"first", q}, {"page10000", deep}} {
				b.Run(fmt.Sprintf("%s/%s/%s", s, dir, c.name), func(b *testing.B) {
					for b.Loop() {
						page, err := db.List(ctx, c.q)
						if err != nil {
							b.Fatal(err)
						}
						if len(page.Puzzles) != 20 || page.Total != archiveRows {
							b.Fatalf("%d rows, total %d", len(page.Puzzles), page.Total)
						}
					}
					b.ReportMetric(rssMB(b), "RSS-MB")
				})
			}
		}
	}
}

// cursorAtRow returns the cursor that continues q after its row'th row
// (0-based): the NextCursor of page row/limit.
func cursorAtRow(b *testing.B, db *DB, q record.ListQuery, row int) string {
	b.Helper()
	n := 0
	var c string
	err := db.Export(context.Background(), q, func(p record.Puzzle) error {
		if n == row {
			c = cursor{sort: q.Sort, desc: q.Desc, unique: q.UniqueOnly, key: keyOf(q.Sort, &p)}.encode()
			return errStop
		}
		n++
		return nil
	})
	if err != errStop {
		b.Fatalf("no row %d: %v", row, err)
	}
	return c
}

var errStop = fmt.Errorf("stop")

// BenchmarkExport streams the whole million-puzzle archive, in id order
// (the table's own order) and by difficulty (through the index, so the rows
// are read in random order).
func BenchmarkExport(b *testing.B) {
	db := MustOpenDBAt(b, millionArchive(b))
	ctx := context.Background()
	for _, q := range []record.ListQuery{
		{Sort: record.SortSubmitted},
		{Sort: record.SortDifficulty, Desc: true},
	} {
		b.Run(string(q.Sort), func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				n := 0
				if err := db.Export(ctx, q, func(record.Puzzle) error {
					n++
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				if n != archiveRows {
					b.Fatalf("exported %d", n)
				}
			}
			b.ReportMetric(float64(archiveRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			// CPU time is steadier than wall time on a shared machine.
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(rssMB(b), "RSS-MB")
		})
	}
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
