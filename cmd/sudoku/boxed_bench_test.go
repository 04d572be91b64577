package main

import (
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

var (
	boxQuota   = flag.Float64("box.quota", 0.25, "CPU of each boxed server in BenchmarkBoxedScaleOut (cgroup v1 CFS quota, in cores)")
	boxClients = flag.Int("box.clients", 32, "clients of BenchmarkBoxedScaleOut, spread over the servers")
	boxServers = flag.String("box.servers", "1,2,4", "server counts of BenchmarkBoxedScaleOut")
	boxGraders = flag.String("box.graders", "", "serve --graders of each server in BenchmarkBoxedScaleOut; empty: serve's default (one per core)")
	boxStmts   = flag.Bool("box.statements", false, "BenchmarkBoxedScaleOut logs PostgreSQL's statements per request (pg_stat_statements)")
	boxPGSet   = flag.String("box.pgset", "", "PostgreSQL settings of BenchmarkBoxedScaleOut's cluster, name=value,...: ALTER SYSTEM SET and a reload (e.g. commit_delay=200,commit_siblings=1)")
	boxWarmup  = flag.Int("box.warmup", 250, "requests per server that BenchmarkBoxedScaleOut runs before it measures")
	boxArchive = flag.Int("box.archive", 5000, "puzzles BenchmarkBoxedScaleOut's submissions find archived (imported and graded before the servers start)")
)

// BenchmarkBoxedScaleOut measures what more servers add when each is a
// small host of its own: every `sudoku serve` is boxed in a cgroup v1 cpu
// group with a CFS quota (-box.quota cores, 0.25 by default), and
// PostgreSQL's postmaster and backends, and the servers, are metered in
// cpuacct groups. Side by side: one, two and four servers (-box.servers);
// straight to the cluster's socket and through a delay proxy of 1 ms each
// way; for submissions of distinct new puzzles (the Kaggle collection,
// then 17-clue ones) and for players' finishes (each of -box.clients
// players starts and finishes an attempt at a puzzle not played before: a
// counted first attempt with the model's update). It reports req/s, p50
// and p99, PostgreSQL's and the servers' CPU per request, and the share
// of the servers' CFS periods in which they were throttled. With
// -box.statements it also logs pg_stat_statements' calls and execution
// time per request of the busiest statements. The load generator runs
// unboxed on the same machine. Before it measures, each server serves
// -box.warmup requests of the same work (250 by default), so that the
// figures are the steady state, not the servers' start (a new
// connection's first run of each statement). The archive must hold
// exactly what was acknowledged after each run. Without root and cgroup v1 it skips,
// saying why. Targets: docs/performance.md.
//
//	go test -run '^$' -bench BoxedScaleOut -benchtime 3000x -timeout 60m ./cmd/sudoku
func BenchmarkBoxedScaleOut(b *testing.B) {
	if why := canBox(); why != "" {
		b.Skip("cannot box servers here: " + why)
	}
	if _, err := pgtest.Bin(); err != nil {
		b.Skipf("no PostgreSQL server binaries: %v", err)
	}
	env := &boxEnv{bin: buildBinary(b), c: pgtest.Start(b)}
	if *boxStmts {
		enableStatements(b, env.c)
	}
	setPG(b, env.c, *boxPGSet)
	pm, err := env.c.PostmasterPID()
	if err != nil {
		b.Fatal(err)
	}
	env.pg = newCgroup(b, "cpuacct", "postgres")
	env.pg.addTree(b, pm)
	for _, name := range []string{puzzletest.Kaggle, puzzletest.SeventeenClue} {
		for _, line := range puzzletest.Lines(b, name, 0) {
			env.lines = append(env.lines, line[:81])
		}
	}
	var counts []int
	for _, s := range strings.Split(*boxServers, ",") {
		var n int
		fmt.Sscan(s, &n)
		counts = append(counts, n)
	}
	for _, work := range []string{"submit", "finish"} {
		for _, delay := range []time.Duration{0, time.Millisecond} {
			for _, n := range counts {
				b.Run(fmt.Sprintf("%s/delay=%v/servers=%d", work, delay, n), func(b *testing.B) {
					env.run(b, work, delay, n)
				})
			}
		}
	}
}

// boxEnv is what every run of BenchmarkBoxedScaleOut shares.
type boxEnv struct {
	bin   string
	c     *pgtest.Cluster
	pg    *cgroup  // PostgreSQL's meter
	lines []string // distinct puzzles
	runs  atomic.Int64
}

// run is one subbenchmark: n boxed servers on a fresh database, b.N
// requests of work.
func (env *boxEnv) run(b *testing.B, work string, delay time.Duration, n int) {
	warm := *boxWarmup * n
	if warm+b.N > len(env.lines) {
		b.Fatalf("%d requests asked for; the collections hold %d distinct puzzles", warm+b.N, len(env.lines))
	}
	dsn := env.c.NewDB(b)
	var op boxOp
	archived := 0
	if work == "finish" {
		op = finishOp(importPlays(b, env.bin, dsn, env.lines[:warm+b.N]))
	} else {
		archived = env.archive(b, dsn, warm+b.N)
		op = submitOp(env.lines[:warm+b.N])
	}
	serverDSN := dsn
	if delay > 0 {
		serverDSN = throughProxy(b, env.c, dsn, delay)
	}
	k := env.runs.Add(1)
	meter := newCgroup(b, "cpuacct", fmt.Sprintf("servers%d", k))
	var procs []*proc
	var boxes []*cgroup
	var urls []string
	for i := range n {
		args := []string{"--rate-limit", "0"}
		if *boxGraders != "" {
			args = append(args, "--graders", *boxGraders)
		}
		p := startProc(b, env.bin, serverDSN, args...)
		box := newCgroup(b, "cpu", fmt.Sprintf("r%d-s%d", k, i))
		box.quota(b, *boxQuota)
		box.add(b, p.cmd.Process.Pid)
		meter.add(b, p.cmd.Process.Pid)
		procs, boxes, urls = append(procs, p), append(boxes, box), append(urls, p.url)
	}
	// Warm up: each server's connections opened, its statements
	// prepared and planned (the first runs of a statement on a new
	// connection cost PostgreSQL milliseconds: what the run measures is
	// the steady state, not n servers' start).
	if warm > 0 {
		boxLoad(b, urls, warm, op)
	}
	analyze(b, dsn)
	resetStatements(b, dsn)
	pg0, sv0, per0, thr0 := env.pg.usage(b), meter.usage(b), int64(0), int64(0)
	for _, box := range boxes {
		p, t := box.throttling(b)
		per0, thr0 = per0+p, thr0+t
	}
	lat := boxLoad(b, urls, b.N, func(client *http.Client, url string, i int) error { return op(client, url, warm+i) })
	elapsed := b.Elapsed()
	pg1, sv1, per1, thr1 := env.pg.usage(b), meter.usage(b), int64(0), int64(0)
	for _, box := range boxes {
		p, t := box.throttling(b)
		per1, thr1 = per1+p, thr1+t
	}
	logStatements(b, dsn, b.N)
	for _, p := range procs {
		stopProc(b, p)
	}
	if work == "submit" {
		checkTotals(b, dsn, int64(archived+warm+b.N))
	} else {
		checkFinished(b, dsn, int64(warm+b.N))
	}
	report(b, lat, elapsed)
	b.ReportMetric(float64((pg1-pg0).Microseconds())/1000/float64(b.N), "pg-cpu-ms/op")
	b.ReportMetric(float64((sv1-sv0).Microseconds())/1000/float64(b.N), "server-cpu-ms/op")
	if per1 > per0 {
		b.ReportMetric(100*float64(thr1-thr0)/float64(per1-per0), "throttled-%")
	}
}

// analyze runs ANALYZE on the database at dsn, as autovacuum does within a
// minute of a table's growth: a fresh database's statistics say its
// tables are empty, and a statement planned then (a prepared statement's
// generic plan, kept for the connection) reads the whole puzzles table
// where an index would take its few rows, until ANALYZE invalidates the
// plan. The runs are shorter than autovacuum's naptime; a server's
// steady state is an analyzed archive.
func analyze(b *testing.B, dsn string) {
	b.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("ANALYZE"); err != nil {
		b.Fatal(err)
	}
}

// archive imports the last -box.archive puzzles of the collections into
// the database at dsn, none of the first used ones, and returns how many.
// Submissions then meet an archive of some size, as a server's do: on a
// database of a few hundred rows PostgreSQL plans the writer's lookups
// (prepared once per connection, planned generically) as sequential scans,
// which then read the whole table for every group commit as it grows
// through the run, a cost per group that more servers multiply (issue 36).
func (env *boxEnv) archive(b *testing.B, dsn string, used int) int {
	b.Helper()
	n := *boxArchive
	if n <= 0 {
		return 0
	}
	if used+n > len(env.lines) {
		b.Fatalf("%d requests and %d archived puzzles asked for; the collections hold %d distinct puzzles", used, n, len(env.lines))
	}
	file := filepath.Join(b.TempDir(), "archive.txt")
	if err := os.WriteFile(file, []byte(strings.Join(env.lines[len(env.lines)-n:], "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if out, err := runBin(env.bin, "import", "--db", dsn, file); err != nil {
		b.Fatalf("import: %v\n%s", err, out)
	}
	return n
}

// report gives the rate and the latencies of a run.
func report(b *testing.B, lat []time.Duration, elapsed time.Duration) {
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// boxOp is one request of a client (a player) to the server at url: the
// i-th of the run.
type boxOp func(client *http.Client, url string, i int) error

// boxLoad runs n ops from *boxClients clients, each bound to one server
// and with a cookie jar of its own (a player), between b's timer's reset
// and stop, and returns each op's latency. Every op must succeed.
func boxLoad(b *testing.B, urls []string, n int, op boxOp) []time.Duration {
	clients := *boxClients
	transport := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	defer transport.CloseIdleConnections()
	var (
		next     atomic.Int64
		firstErr atomic.Value
		wg       sync.WaitGroup
		mu       sync.Mutex
		lat      = make([]time.Duration, 0, n)
	)
	b.ResetTimer()
	b.StartTimer() // a second load (after the warm-up) starts the timer StopTimer stopped
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jar, _ := cookiejar.New(nil)
			client := &http.Client{Transport: transport, Jar: jar}
			var mine []time.Duration
			for {
				i := int(next.Add(1) - 1)
				if i >= n || firstErr.Load() != nil {
					break
				}
				start := time.Now()
				if err := op(client, urls[c%len(urls)], i); err != nil {
					firstErr.CompareAndSwap(nil, err)
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	b.StopTimer()
	if err := firstErr.Load(); err != nil {
		b.Fatal(err)
	}
	return lat
}

// boxPost posts body to url and decodes a JSON answer of status want
// into out (when not nil).
func boxPost(client *http.Client, url, body string, want int, out any) error {
	res, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		return fmt.Errorf("POST %s: %d, want %d: %.200s", url, res.StatusCode, want, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// submitOp submits lines[i], a puzzle new to the archive: 201.
func submitOp(lines []string) boxOp {
	return func(client *http.Client, url string, i int) error {
		return boxPost(client, url+"/api/puzzles", `{"puzzle": "`+lines[i]+`"}`, http.StatusCreated, nil)
	}
}

// play is an archived puzzle and its solution.
type play struct {
	id       int64
	solution string
}

// finishOp starts an attempt at plays[i] and finishes it solved: the
// player's first at the puzzle.
func finishOp(plays []play) boxOp {
	return func(client *http.Client, url string, i int) error {
		var a struct{ ID int64 }
		if err := boxPost(client, url+"/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, plays[i].id), http.StatusCreated, &a); err != nil {
			return err
		}
		body := fmt.Sprintf(`{"outcome": "solved", "grid": %q, "active_seconds": %d}`, plays[i].solution, 60+i%240)
		return boxPost(client, fmt.Sprintf("%s/api/attempts/%d", url, a.ID), body, http.StatusOK, nil)
	}
}

// importPlays archives lines with `sudoku import` (graded too) and
// returns them as archived, in id order.
func importPlays(b *testing.B, bin, dsn string, lines []string) []play {
	b.Helper()
	file := filepath.Join(b.TempDir(), "puzzles.txt")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if out, err := runBin(bin, "import", "--db", dsn, file); err != nil {
		b.Fatalf("import: %v\n%s", err, out)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT id, solution FROM puzzles ORDER BY id")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var plays []play
	for rows.Next() {
		var p play
		if err := rows.Scan(&p.id, &p.solution); err != nil {
			b.Fatal(err)
		}
		plays = append(plays, p)
	}
	if len(plays) != len(lines) {
		b.Fatalf("imported %d puzzles of %d", len(plays), len(lines))
	}
	return plays
}

// checkFinished checks that the archive at dsn holds exactly want
// attempts, each finished solved and counted first.
func checkFinished(tb testing.TB, dsn string, want int64) {
	tb.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var n, solved, first int64
	if err := db.QueryRow("SELECT count(*), count(*) FILTER (WHERE outcome = 'solved'), coalesce(sum(first), 0) FROM attempts").Scan(&n, &solved, &first); err != nil {
		tb.Fatal(err)
	}
	if n != want || solved != want || first != want {
		tb.Errorf("%d attempts, %d solved, %d first; want %d of each", n, solved, first, want)
	}
}
