package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/store"
)

func TestParseServeFlags(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		env        map[string]string
		addr, db   string
		rate       float64
		proxies    []netip.Prefix
		wantErrMsg string
		licence    string
	}{
		{name: "defaults", addr: defaultAddr, db: defaultDB, rate: defaultRateLimit},
		{name: "licence", args: []string{"--licence", "CC BY 4.0"}, addr: defaultAddr, db: defaultDB, rate: defaultRateLimit, licence: "CC BY 4.0"},
		{name: "env", env: map[string]string{"SUDOKU_ADDR": ":9000", "SUDOKU_DB": "/tmp/a.db"}, addr: ":9000", db: "/tmp/a.db", rate: defaultRateLimit},
		{name: "flag beats env", args: []string{"--addr", "127.0.0.1:0", "--db", "b.db"},
			env: map[string]string{"SUDOKU_ADDR": ":9000", "SUDOKU_DB": "/tmp/a.db"}, addr: "127.0.0.1:0", db: "b.db", rate: defaultRateLimit},
		{name: "rate limit off", args: []string{"--rate-limit", "0"}, addr: defaultAddr, db: defaultDB, rate: 0},
		{name: "trusted proxies", args: []string{"--trusted-proxy", "10.0.0.0/8, fd00::/8"}, addr: defaultAddr, db: defaultDB, rate: defaultRateLimit,
			proxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}},
		{name: "negative rate", args: []string{"--rate-limit", "-1"}, wantErrMsg: `--rate-limit "-1"`},
		{name: "negative graders", args: []string{"--graders", "-1"}, wantErrMsg: `--graders "-1"`},
		{name: "bad proxy", args: []string{"--trusted-proxy", "10.0.0.1"}, wantErrMsg: `--trusted-proxy "10.0.0.1"`},
		{name: "bad log format", args: []string{"--log-format", "xml"}, wantErrMsg: "--log-format"},
		{name: "stray argument", args: []string{"extra"}, wantErrMsg: "no arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{getenv: func(k string) string { return tc.env[k] }, stderr: io.Discard, stdout: io.Discard}
			cfg, err := parseServeFlags(e, tc.args)
			if tc.wantErrMsg != "" {
				var u errUsage
				if err == nil || !strings.Contains(err.Error(), tc.wantErrMsg) || !errors.As(err, &u) {
					t.Fatalf("err = %v, want a usage error containing %q", err, tc.wantErrMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.graders != runtime.GOMAXPROCS(0) {
				t.Errorf("graders %d, want one per core (%d) by default", cfg.graders, runtime.GOMAXPROCS(0))
			}
			if cfg.addr != tc.addr || cfg.db != tc.db || cfg.web.RateLimit != tc.rate {
				t.Errorf("addr %q db %q rate %v; want %q %q %v", cfg.addr, cfg.db, cfg.web.RateLimit, tc.addr, tc.db, tc.rate)
			}
			if cfg.web.Licence != tc.licence {
				t.Errorf("licence %q, want %q", cfg.web.Licence, tc.licence)
			}
			if d := cmp.Diff(tc.proxies, cfg.web.TrustedProxies, cmp.Comparer(func(a, b netip.Prefix) bool { return a == b })); d != "" {
				t.Errorf("proxies (-want +got):\n%s", d)
			}
		})
	}
}

// logBuffer collects a server's stderr and tells when the listening address
// shows up in it.
type logBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	addr chan string
	sent bool
}

var listeningRE = regexp.MustCompile(`msg=listening addr=(\S+)`)

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buf.Len() < 1<<20 { // enough for a test to read; a load run logs far more
		l.buf.Write(p)
	}
	if !l.sent {
		if m := listeningRE.FindSubmatch(l.buf.Bytes()); m != nil {
			l.sent = true
			l.addr <- string(m[1])
		}
	}
	return len(p), nil
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// server is a `sudoku serve` started by a test.
type server struct {
	url  string
	logs *logBuffer
	stop func() error // stops the server and returns what run returned
}

// startServe runs `sudoku serve` on a free loopback port over dbPath, as
// main would, and waits until it listens.
func startServe(t testing.TB, dbPath string, extra ...string) *server {
	t.Helper()
	return startServeEnv(t, dbPath, nil, extra...)
}

// startServeEnv is startServe with opened, if not nil, as the env's hook
// that receives the store the server opens.
func startServeEnv(t testing.TB, dbPath string, opened func(*store.DB), extra ...string) *server {
	t.Helper()
	logs := &logBuffer{addr: make(chan string, 1)}
	e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: logs, opened: opened}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	// The puzzle of the day's keeper archives puzzles in the background:
	// tests that count rows run without it; those of the keeper ask for it.
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", dbPath, "--daily=false"}, extra...)
	go func() {
		done <- dispatch(ctx, e, args)
	}()
	s := &server{logs: logs}
	select {
	case addr := <-logs.addr:
		s.url = "http://" + addr
	case err := <-done:
		cancel()
		t.Fatalf("serve stopped before listening: %v\n%s", err, logs)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("serve did not listen within 30 s:\n%s", logs)
	}
	var once sync.Once
	var stopErr error
	s.stop = func() error {
		once.Do(func() {
			cancel()
			stopErr = <-done
		})
		return stopErr
	}
	t.Cleanup(func() { s.stop() })
	return s
}

// call sends a request and decodes a JSON answer into out (when not nil).
func call(t testing.TB, method, url, body string, out any) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: status %d, body %s: %v", method, url, res.StatusCode, b, err)
		}
	}
	return res
}

// puzzleJSON is an archived puzzle as a client sees it.
type puzzleJSON struct {
	ID          int64  `json:"id"`
	Puzzle      string `json:"puzzle"`
	Solution    string `json:"solution"`
	Submissions int64  `json:"submissions"`
	Duplicate   bool   `json:"duplicate"`
	SubmittedAt string `json:"submitted_at"`
}

// TestServeEndToEnd runs `sudoku serve` on a real database: submit,
// duplicate, list, get; then a restart over the same file serves the same
// data.
func TestServeEndToEnd(t *testing.T) { eachArchive(t, testServeEndToEnd) }

func testServeEndToEnd(t *testing.T, dbPath string) {
	s := startServe(t, dbPath, "--rate-limit", "0")

	var first, dup, got puzzleJSON
	res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, &first)
	if res.StatusCode != http.StatusCreated || res.Header.Get("Location") != "/puzzles/1" || first.ID != 1 {
		t.Fatalf("submit: status %d, Location %q, id %d", res.StatusCode, res.Header.Get("Location"), first.ID)
	}
	res = call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+strings.ReplaceAll(easy, ".", "0")+`"}`, &dup)
	if res.StatusCode != http.StatusOK || !dup.Duplicate || dup.ID != 1 || dup.Submissions != 2 {
		t.Fatalf("duplicate: status %d, %+v", res.StatusCode, dup)
	}
	var page struct {
		Puzzles    []puzzleJSON `json:"puzzles"`
		NextCursor *string      `json:"next_cursor"`
		Total      int64        `json:"total"`
	}
	if res := call(t, "GET", s.url+"/api/puzzles?sort=submitted", "", &page); res.StatusCode != http.StatusOK || page.Total != 1 || len(page.Puzzles) != 1 {
		t.Fatalf("list: status %d, %+v", res.StatusCode, page)
	}
	if res := call(t, "GET", s.url+"/api/puzzles/1", "", &got); res.StatusCode != http.StatusOK || got.Puzzle != easy || got.Submissions != 2 {
		t.Fatalf("get: status %d, %+v", res.StatusCode, got)
	}
	if res := call(t, "GET", s.url+"/api/puzzles/2", "", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown id: status %d", res.StatusCode)
	}
	if res := call(t, "GET", s.url+"/healthz", "", nil); res.StatusCode != http.StatusOK {
		t.Errorf("healthz: status %d", res.StatusCode)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("serve returned %v\n%s", err, s.logs)
	}
	if logs := s.logs.String(); !strings.Contains(logs, "msg=request") || !strings.Contains(logs, "msg=stopped") {
		t.Errorf("logs lack request lines or the shutdown:\n%s", logs)
	}

	// A new process over the same archive.
	s = startServe(t, dbPath)
	var again puzzleJSON
	if res := call(t, "GET", s.url+"/api/puzzles/1", "", &again); res.StatusCode != http.StatusOK {
		t.Fatalf("after restart: status %d", res.StatusCode)
	}
	if d := cmp.Diff(got, again); d != "" {
		t.Errorf("after restart (-before +after):\n%s", d)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
}

func TestServeBadDatabase(t *testing.T) {
	dir := t.TempDir()
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--db", dir}, func(string) string { return "" },
		strings.NewReader(""), io.Discard, io.Discard)
	if err == nil {
		t.Fatal("serve on a directory as database succeeded")
	}
}

// TestServeShutdownKeepsAcknowledged stops the server while clients are
// submitting: every submission answered 201 must be in the database that
// the next server opens.
func TestServeShutdownKeepsAcknowledged(t *testing.T) {
	dbPath := sqliteArchive(t)
	s := startServe(t, dbPath, "--rate-limit", "0")
	const clients, each = 8, 25
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
		sent  atomic.Int64
	)
	client := &http.Client{Timeout: 20 * time.Second}
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				p := relabel(easy, c*each+i)
				sent.Add(1)
				res, err := client.Post(s.url+"/api/puzzles", "application/json", strings.NewReader(`{"puzzle": "`+p+`"}`))
				if err != nil {
					return // the server has stopped listening
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusCreated {
					mu.Lock()
					acked = append(acked, p)
					mu.Unlock()
				}
			}
		}()
	}
	for sent.Load() < clients*each/3 {
		time.Sleep(time.Millisecond)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	wg.Wait()
	if len(acked) == 0 {
		t.Fatal("no submission was acknowledged before the shutdown")
	}

	s = startServe(t, dbPath, "--rate-limit", "0")
	for _, p := range acked {
		var got puzzleJSON
		// Re-submitting an archived puzzle answers 200 duplicate; a lost one
		// would be 201.
		if res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+p+`"}`, &got); res.StatusCode != http.StatusOK || !got.Duplicate {
			t.Errorf("acknowledged puzzle %s: status %d after restart, want 200 duplicate", p, res.StatusCode)
		}
	}
	t.Logf("%d of %d submissions acknowledged before the shutdown, all present after restart", len(acked), clients*each)
}
