package main

import (
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
)

// BenchmarkArchiveSubmit measures durable submissions per second through
// `sudoku serve` processes (the built binary, as deployed) on each
// database, side by side in one run: one and two servers on an SQLite
// file, one and two on a PostgreSQL database. 32 clients post distinct new
// puzzles, spread over the servers; load generator, servers and database
// share the machine. Beside them, pgbench's simple-update transactions
// (pgbench -N -c16 -j2 -T10) on a cluster like the one the servers use:
// the rate of small durable commits PostgreSQL itself reaches here, the
// ceiling for the archive's.
//
//	go test -run '^$' -bench ArchiveSubmit -benchtime 20000x ./cmd/sudoku
func BenchmarkArchiveSubmit(b *testing.B) {
	const clients = 32
	bin := buildBinary(b)
	// One cluster for the servers on PostgreSQL and for pgbench, when
	// this machine has one.
	var c *pgtest.Cluster
	if _, err := pgtest.Bin(); err == nil {
		c = pgtest.Start(b)
	}
	for _, db := range []string{"sqlite", "postgres"} {
		if db == "postgres" && c == nil {
			continue
		}
		for _, n := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/servers=%d", db, n), func(b *testing.B) {
				dsn := filepath.Join(b.TempDir(), "sudoku.db")
				if db == "postgres" {
					dsn = c.NewDB(b)
				}
				var urls []string
				var procs []*proc
				for range n {
					p := startProc(b, bin, dsn, "--rate-limit", "0")
					procs = append(procs, p)
					urls = append(urls, p.url)
				}
				submitLoad(b, urls, clients)
				for _, p := range procs {
					stopProc(b, p)
				}
			})
		}
	}
	if c == nil {
		return
	}
	b.Run("pgbench", func(b *testing.B) {
		pgbenchOnce.Do(func() { pgbenchTPS, pgbenchErr = runPgbench(b, c) })
		if pgbenchErr != nil {
			b.Fatal(pgbenchErr)
		}
		b.ReportMetric(pgbenchTPS, "tps")
	})
}

// pgbench runs once per test process however often the benchmark
// framework calls its sub-benchmark (a timed run, not b.N iterations).
var (
	pgbenchOnce sync.Once
	pgbenchTPS  float64
	pgbenchErr  error
)

var tpsRE = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// runPgbench initializes pgbench's tables in a new database of c and
// returns the rate of pgbench -N -c16 -j2 -T10 there.
func runPgbench(b *testing.B, c *pgtest.Cluster) (float64, error) {
	bin, err := exec.LookPath("pgbench")
	if err != nil {
		bin = filepath.Join(c.BinDir(), "pgbench")
	}
	u, err := url.Parse(c.NewDB(b))
	if err != nil {
		return 0, err
	}
	conn := []string{"-h", c.SocketDir(), "-U", "postgres"}
	db := strings.TrimPrefix(u.Path, "/")
	if out, err := exec.Command(bin, append(append([]string{"-i", "-q"}, conn...), db)...).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("pgbench -i: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, append(append([]string{"-N", "-c16", "-j2", "-T10"}, conn...), db)...).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pgbench -N: %v\n%s", err, out)
	}
	m := tpsRE.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no tps in pgbench's output:\n%s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}
