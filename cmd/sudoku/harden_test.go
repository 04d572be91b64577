package main

// Figures of issue 18 ("Hardening, second pass"), measured against the
// built `sudoku serve` binary. Short by default; -harden.full runs the
// sizes docs/reliability.md reports. They log figures; apart from the
// memory bound, they assert correctness, not speed.

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
)

var hardenFull = flag.Bool("harden.full", false, "issue 18 figures at full size (300,000-puzzle export, 256 trace downloads, 64 hostile solves)")

// peakRSS is the peak resident memory of process pid, in MB (VmHWM).
func peakRSS(tb testing.TB, pid int) float64 {
	tb.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	tb.Skip("no VmHWM")
	return 0
}

// TestHardenExportSlowClient: a client reading at 1 MB/s downloads the
// whole archive, every row, though that takes far longer than the 10 s
// request timeout. Short: 30,000 puzzles (2.5 MB); full: 300,000 (25 MB).
func TestHardenExportSlowClient(t *testing.T) {
	racefree.Only(t)
	if testing.Short() {
		t.Skip("a measurement")
	}
	n := 30_000
	if *hardenFull {
		n = 300_000
	}
	path := filepath.Join(t.TempDir(), "sudoku.db")
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := storetest.BuildArchive(path, n); err != nil {
		t.Fatal(err)
	}
	p := startProc(t, buildBinary(t), path, "--rate-limit", "0")
	res, err := http.Get(p.url + "/api/export?format=txt")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	const rate = 1 << 20 // bytes per second
	start := time.Now()
	var got int64
	buf := make([]byte, 32<<10)
	lines := 0
	for {
		k, err := res.Body.Read(buf)
		got += int64(k)
		for _, c := range buf[:k] {
			if c == '\n' {
				lines++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d bytes, %d rows: %v\n%s", got, lines, err, p.logs)
		}
		if ahead := time.Duration(float64(got)/rate*float64(time.Second)) - time.Since(start); ahead > 0 {
			time.Sleep(ahead)
		}
	}
	took := time.Since(start)
	t.Logf("export of %d puzzles to a 1 MiB/s client: %d rows, %d bytes in %v (%.2f MB/s)", n, lines, got, took.Round(time.Millisecond), float64(got)/took.Seconds()/1e6)
	if lines != n {
		t.Errorf("%d rows, want %d", lines, n)
	}
}

// TestHardenTraceMemory: many clients download the trace of the longest
// known trace (longestPuzzle, about 2 MB of JSON) at once, as plain JSON (the server decompresses its
// cached copy for each), and as many more ask for it and never read. The
// server's peak RSS stays under 200 MB. Short: 32 + 32 clients; full: 256
// readers + 400 that never read.
func TestHardenTraceMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a measurement")
	}
	readers, stalled := 32, 32
	if *hardenFull {
		readers, stalled = 256, 400
	}
	p := startProc(t, buildBinary(t), filepath.Join(t.TempDir(), "sudoku.db"), "--rate-limit", "0")
	var created puzzleJSON
	if res := call(t, "POST", p.url+"/api/puzzles", `{"puzzle":"`+longestPuzzle+`"}`, &created); res.StatusCode != 201 {
		t.Fatalf("submit: %d", res.StatusCode)
	}
	url := fmt.Sprintf("%s/api/puzzles/%d/trace", p.url, created.ID)
	base := peakRSS(t, p.cmd.Process.Pid)

	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	host := strings.TrimPrefix(p.url, "http://")
	for range stalled {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET /api/puzzles/%d/trace HTTP/1.1\r\nHost: x\r\n\r\n", created.ID)
		conns = append(conns, c)
	}
	tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: readers}
	client := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var sizes []int64
	for range readers {
		wg.Go(func() {
			res, err := client.Get(url)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			n, err := io.Copy(io.Discard, bufio.NewReaderSize(res.Body, 4096))
			if err != nil || res.StatusCode != 200 {
				t.Errorf("trace: %d, %v", res.StatusCode, err)
			}
			mu.Lock()
			sizes = append(sizes, n)
			mu.Unlock()
		})
	}
	wg.Wait()
	time.Sleep(200 * time.Millisecond)
	peak := peakRSS(t, p.cmd.Process.Pid)
	t.Logf("%d trace downloads of %d bytes each + %d clients that never read: server peak RSS %.0f MB (%.0f MB before)", readers, slices.Max(sizes), stalled, peak, base)
	if peak > 200 {
		t.Errorf("peak RSS %.0f MB, want under 200 MB", peak)
	}
}

// TestHardenReadsUnderHostileSolves: while many clients post the engine's
// worst known grid (each refused after the whole node budget), a reader
// lists the archive; its latency is logged. Short: 8 hostile clients for
// 3 s; full: 64 for 10 s.
func TestHardenReadsUnderHostileSolves(t *testing.T) {
	racefree.Only(t)
	if testing.Short() {
		t.Skip("a measurement")
	}
	clients, dur := 8, 3*time.Second
	if *hardenFull {
		clients, dur = 64, 10*time.Second
	}
	const hostile = ".5...6.98.....2.17................3...........24..............6........531...9..."
	p := startProc(t, buildBinary(t), filepath.Join(t.TempDir(), "sudoku.db"), "--rate-limit", "0")
	for i := range 20 {
		call(t, "POST", p.url+"/api/puzzles", `{"puzzle":"`+relabel(easy, i)+`"}`, nil)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for range clients {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := http.Post(p.url+"/api/solve", "application/json", strings.NewReader(`{"puzzle":"`+hostile+`"}`))
				if err != nil {
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				mu.Lock()
				statuses[res.StatusCode]++
				mu.Unlock()
			}
		})
	}
	time.Sleep(300 * time.Millisecond) // let the hostile load build up
	var reads []time.Duration
	end := time.Now().Add(dur)
	for time.Now().Before(end) {
		t0 := time.Now()
		res, err := http.Get(p.url + "/api/puzzles")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("read: %d", res.StatusCode)
		}
		reads = append(reads, time.Since(t0))
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	slices.Sort(reads)
	q := func(f float64) time.Duration { return reads[int(f*float64(len(reads)-1))].Round(10 * time.Microsecond) }
	t.Logf("%d hostile solvers: %d reads, p50 %v, p99 %v, max %v; hostile answers by status %v", clients, len(reads), q(0.5), q(0.99), reads[len(reads)-1].Round(10*time.Microsecond), statuses)
}

// TestHardenBusyDatabase (promise 3): while another connection holds the
// write lock (as a sqlite3 session or a second process would), submissions
// are answered 503 with Retry-After, all of them within the 10 s request
// timeout, and none is logged as an error; once the lock is released they
// succeed again.
func TestHardenBusyDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the busy timeout")
	}
	path := filepath.Join(t.TempDir(), "sudoku.db")
	s := startServe(t, path, "--rate-limit", "0")
	raw := openRaw(t, path)
	conn, err := raw.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			t0 := time.Now()
			res, err := http.Post(s.url+"/api/puzzles", "application/json", strings.NewReader(`{"puzzle":"`+relabel(easy, i)+`"}`))
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			took := time.Since(t0)
			t.Logf("submission %d under a held lock: %d, Retry-After %q, after %v", i, res.StatusCode, res.Header.Get("Retry-After"), took.Round(time.Millisecond))
			if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
				t.Errorf("submission %d: status %d, Retry-After %q; want 503 and a delay", i, res.StatusCode, res.Header.Get("Retry-After"))
			}
			if took > 10*time.Second {
				t.Errorf("submission %d answered after %v, past the 10 s request timeout", i, took)
			}
		})
	}
	wg.Wait()
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle":"`+easy+`"}`, nil); res.StatusCode != http.StatusCreated {
		t.Errorf("after the lock is released: %d", res.StatusCode)
	}
	if l := s.logs.String(); strings.Contains(l, "level=ERROR") {
		t.Errorf("a busy database logged as an error:\n%s", l)
	}
}
