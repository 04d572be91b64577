package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to count the rows

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// scaleClients is how many clients BenchmarkPostgresScaleOut runs, spread
// evenly over the servers. A server commits the submissions waiting in one
// transaction, so with few clients its writer idles between round trips
// and a second server adds little; 128 keep two servers' writers busy
// (docs/performance.md has the figures at 64 too).
var scaleClients = flag.Int("scale.clients", 128, "clients of BenchmarkPostgresScaleOut, spread over the servers")

// BenchmarkPostgresScaleOut measures durable submissions of distinct real
// puzzles (the Kaggle easy collection, then the 17-clue one; every request
// a puzzle new to the archive) per second through `sudoku serve` processes
// sharing one PostgreSQL database: one server and two, first straight to
// the cluster's Unix socket, then through delayProxy, which holds every
// packet 1 ms each way (a 2 ms round trip, as if the servers ran on other
// hosts than the database). scaleClients clients post, spread over the
// servers (-scale.clients sets how many). Each run checks that the archive holds exactly the puzzles
// acknowledged, its counters included. Beside them, pgbench -N on the
// same cluster.
//
//	go test -run '^$' -bench PostgresScaleOut -benchtime 4000x -timeout 30m ./cmd/sudoku
func BenchmarkPostgresScaleOut(b *testing.B) {
	if _, err := pgtest.Bin(); err != nil {
		b.Skipf("no PostgreSQL server binaries: %v", err)
	}
	bin := buildBinary(b)
	c := pgtest.Start(b)
	var bodies []string
	for _, name := range []string{puzzletest.Kaggle, puzzletest.SeventeenClue} {
		for _, line := range puzzletest.Lines(b, name, 0) {
			bodies = append(bodies, `{"puzzle": "`+line[:81]+`"}`)
		}
	}
	for _, delay := range []time.Duration{0, time.Millisecond} {
		for _, n := range []int{1, 2} {
			b.Run(fmt.Sprintf("delay=%v/servers=%d", delay, n), func(b *testing.B) {
				if b.N > len(bodies) {
					b.Fatalf("%d submissions asked for; the collections hold %d distinct puzzles", b.N, len(bodies))
				}
				dsn := c.NewDB(b)
				if delay > 0 {
					dsn = throughProxy(b, c, dsn, delay)
				}
				var procs []*proc
				var urls []string
				for range n {
					p := startProc(b, bin, dsn, "--rate-limit", "0")
					procs, urls = append(procs, p), append(urls, p.url)
				}
				postLoad(b, urls, *scaleClients, bodies[:b.N])
				for _, p := range procs {
					stopProc(b, p)
				}
				checkTotals(b, dsn, int64(b.N))
			})
		}
	}
	b.Run("pgbench", func(b *testing.B) {
		pgbenchOnce.Do(func() { pgbenchTPS, pgbenchErr = runPgbench(b, c) })
		if pgbenchErr != nil {
			b.Fatal(pgbenchErr)
		}
		b.ReportMetric(pgbenchTPS, "tps")
	})
}

// throughProxy starts a delayProxy to c's socket and returns dsn, a
// database of c, by way of it (TCP on 127.0.0.1).
func throughProxy(tb testing.TB, c *pgtest.Cluster, dsn string, delay time.Duration) string {
	addr := startDelayProxy(tb, "unix", filepath.Join(c.SocketDir(), ".s.PGSQL.5432"), delay)
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	u.Host = addr
	u.RawQuery = url.Values{"sslmode": {"disable"}}.Encode()
	return u.String()
}

// checkTotals checks that the archive at dsn holds exactly want puzzles,
// each submitted once, and that its counters say so.
func checkTotals(tb testing.TB, dsn string, want int64) {
	tb.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var rows, subs, total, counted int64
	if err := db.QueryRow("SELECT count(*), coalesce(sum(submissions), 0) FROM puzzles").Scan(&rows, &subs); err != nil {
		tb.Fatal(err)
	}
	if err := db.QueryRow("SELECT sum(total), sum(submissions) FROM counts").Scan(&total, &counted); err != nil {
		tb.Fatal(err)
	}
	if rows != want || subs != want || total != want || counted != want {
		tb.Errorf("%d rows of %d submissions, counters %d and %d; want %d of each", rows, subs, total, counted, want)
	}
}

// postLoad posts bodies to the servers at urls from clients goroutines,
// each bound to one server, and reports the rate and the latencies. Every
// answer must be 201: each body is a puzzle new to the archive.
func postLoad(b *testing.B, urls []string, clients int, bodies []string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	var (
		next      atomic.Int64
		failures  atomic.Int64
		firstErr  atomic.Value
		wg        sync.WaitGroup
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, len(bodies))
	)
	b.ResetTimer()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := urls[c%len(urls)]
			var mine []time.Duration
			for {
				i := next.Add(1) - 1
				if i >= int64(len(bodies)) {
					break
				}
				start := time.Now()
				res, err := client.Post(base+"/api/puzzles", "application/json", strings.NewReader(bodies[i]))
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusCreated {
						err = fmt.Errorf("puzzle %d: status %d", i, res.StatusCode)
					}
				}
				mine = append(mine, time.Since(start))
				if err != nil {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := b.Elapsed()
	b.StopTimer()
	if n := failures.Load(); n > 0 {
		b.Fatalf("%d of %d submissions failed, first: %v", n, len(bodies), firstErr.Load())
	}
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(bodies))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// startDelayProxy listens on TCP 127.0.0.1 and forwards every connection
// to target (network "unix" or "tcp"), holding each piece of data read for
// delay before writing it on, in both directions: a round trip through it
// takes at least 2*delay longer. It returns the address it listens on and
// stops when tb ends.
func startDelayProxy(tb testing.TB, network, target string, delay time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
		wg    sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial(network, target)
			if err != nil {
				client.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, client, server)
			mu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); delayCopy(server, client, delay) }()
			go func() { defer wg.Done(); delayCopy(client, server, delay) }()
		}
	}()
	tb.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

// delayCopy copies src to dst, each piece read written delay after it was
// read, in order; at the end of either it closes both.
func delayCopy(dst, src net.Conn, delay time.Duration) {
	type piece struct {
		b   []byte
		due time.Time
	}
	pieces := make(chan piece, 256)
	go func() {
		defer close(pieces)
		for {
			buf := make([]byte, 16<<10)
			n, err := src.Read(buf)
			if n > 0 {
				pieces <- piece{buf[:n], time.Now().Add(delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	defer src.Close()
	defer dst.Close()
	for p := range pieces {
		time.Sleep(time.Until(p.due))
		if _, err := dst.Write(p.b); err != nil {
			break
		}
	}
	for range pieces { // let the reader finish once src is closed
	}
}

// TestDelayProxy: a round trip through the proxy takes at least twice its
// delay, and every byte arrives, in order, both ways.
func TestDelayProxy(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "echo.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	const delay = 5 * time.Millisecond
	addr := startDelayProxy(t, "unix", sock, delay)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	buf := make([]byte, 1000)
	var sum time.Duration
	const trips = 50
	for i := range trips {
		msg := strings.Repeat(string(rune('a'+i%26)), 1000)
		start := time.Now()
		if _, err := conn.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(conn, buf); err != nil {
			t.Fatal(err)
		}
		rtt := time.Since(start)
		if rtt < 2*delay {
			t.Errorf("round trip %d took %v, want at least %v", i, rtt, 2*delay)
		}
		sum += rtt
		if string(buf) != msg {
			t.Errorf("round trip %d: got back %q..., want %q...", i, buf[:10], msg[:10])
		}
	}
	t.Logf("mean round trip through a proxy of %v each way: %v", delay, sum/trips)
	if err := conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		t.Fatal(err)
	}
}
