package main

// Helpers shared by the reliability tests (load, crash, full disk, backup,
// start-up): a source of distinct puzzles, a tally of what the server
// acknowledged, and checks run on the database file itself.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// puzzleSource hands out distinct puzzles: the 17-clue collection, then the
// same puzzles with their digits relabelled. The collection holds no two
// puzzles that are relabellings of each other, so every puzzle handed out is
// new.
type puzzleSource struct {
	base []string
	n    atomic.Int64
}

func newPuzzleSource(tb testing.TB) *puzzleSource {
	tb.Helper()
	s := &puzzleSource{}
	for _, line := range puzzletest.Lines(tb, puzzletest.SeventeenClue, 5000) {
		s.base = append(s.base, line[:81])
	}
	return s
}

// next returns a puzzle never handed out before, in canonical form.
func (s *puzzleSource) next() string {
	k := int(s.n.Add(1) - 1)
	return relabel(s.base[k%len(s.base)], k/len(s.base))
}

// tally counts, per puzzle (canonical givens), the submissions a server
// acknowledged (201 or 200) and those sent whose answer never came.
type tally struct {
	mu      sync.Mutex
	acked   map[string]int64
	unknown map[string]int64 // sent, no answer: may or may not be committed
	ids     map[string]int64
	list    []string // acknowledged puzzles, for repeats
}

func newTally() *tally {
	return &tally{acked: map[string]int64{}, unknown: map[string]int64{}, ids: map[string]int64{}}
}

func (t *tally) ack(p string, id int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.acked[p] == 0 {
		t.list = append(t.list, p)
	}
	t.acked[p]++
	t.ids[p] = id
}

func (t *tally) lost(p string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.unknown[p]++
}

// record files the outcome of submitting p: acknowledged (201 or 200),
// lost (no answer: committed or not, the client cannot tell), or an error
// of tb for any other answer.
func (t *tally) record(tb testing.TB, p string, res submitResult, err error) {
	switch {
	case err != nil:
		t.lost(p)
	case res.status == http.StatusCreated || res.status == http.StatusOK:
		t.ack(p, res.id)
	default:
		tb.Errorf("submission answered %d: %s", res.status, res.body)
	}
}

// pick returns an acknowledged puzzle and its id, or "" if there is none yet.
func (t *tally) pick(r uint64) (string, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.list) == 0 {
		return "", 0
	}
	p := t.list[r%uint64(len(t.list))]
	return p, t.ids[p]
}

func (t *tally) total() (puzzles int, submissions int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range t.acked {
		submissions += n
	}
	return len(t.acked), submissions
}

// submitResult is what a client learns from POST /api/puzzles.
type submitResult struct {
	status int
	id     int64
	body   string
}

// submit posts p to base/api/puzzles.
func submit(ctx context.Context, client *http.Client, base, p string) (submitResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/puzzles", strings.NewReader(`{"puzzle": "`+p+`"}`))
	if err != nil {
		return submitResult{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return submitResult{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return submitResult{}, err
	}
	r := submitResult{status: res.StatusCode, body: string(b)}
	if r.status == http.StatusCreated || r.status == http.StatusOK {
		var pj puzzleJSON
		if err := json.Unmarshal(b, &pj); err != nil {
			return r, fmt.Errorf("decode %s: %w", b, err)
		}
		if pj.Puzzle != p {
			return r, fmt.Errorf("sent %s, answer is about %s", p, pj.Puzzle)
		}
		r.id = pj.ID
	}
	return r, nil
}

// openRaw opens a database file with database/sql and the same driver as
// the store, read-write (SQLite recovers a crashed WAL on the first open).
func openRaw(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// checkAcknowledged fails tb unless every acknowledged submission is in the
// database: for each puzzle at least as many submissions as acknowledged,
// and at most that plus those whose answer never came.
func checkAcknowledged(tb testing.TB, got map[string]int64, t *tally) {
	tb.Helper()
	t.mu.Lock()
	defer t.mu.Unlock()
	lost := 0
	for p, n := range t.acked {
		switch g := got[p]; {
		case g < n:
			lost++
			if lost <= 5 {
				tb.Errorf("puzzle %s: %d submissions acknowledged, %d stored", p, n, g)
			}
		case g > n+t.unknown[p]:
			tb.Errorf("puzzle %s: %d submissions acknowledged, %d unanswered, yet %d stored", p, n, t.unknown[p], g)
		}
	}
	if lost > 0 {
		tb.Errorf("%d acknowledged puzzles lost or undercounted", lost)
	}
	for p, g := range got {
		if t.acked[p] == 0 && t.unknown[p] == 0 {
			tb.Errorf("puzzle %s stored (%d submissions) but never sent", p, g)
		}
	}
}

// toolDir holds the binaries the tests build, once per test process.
var toolDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sudoku-test-tools")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	toolDir = dir
	// Passwords hashed in this process (the commands the tests run in it)
	// cost argon2id's least; the binaries the tests build hash at the
	// production cost, which account's TestPasswordCost checks.
	account.UseTestCost()
	code := m.Run()
	pgtest.StopShared()
	os.RemoveAll(dir)
	os.Exit(code)
}

// tool is one binary built for the tests.
type tool struct {
	once sync.Once
	path string
	err  error
}

var sudokuBin, dbcheckBin tool

// build builds pkg (relative to the package directory) into toolDir once,
// as a user would: CGO_ENABLED=0, no race detector.
func (b *tool) build(tb testing.TB, pkg, name string) string {
	tb.Helper()
	b.once.Do(func() {
		b.path = filepath.Join(toolDir, name)
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.path
}

// buildBinary returns the sudoku command, built for the tests (the crash
// tests kill it, the start-up tests read its exit status).
func buildBinary(tb testing.TB) string { return sudokuBin.build(tb, ".", "sudoku") }

// inspect checks an archive file with testdata/dbcheck, built without the
// race detector (SQLite compiled to Go runs ten times slower under it): it
// fails tb unless PRAGMA integrity_check says ok, the running totals agree
// with the rows (nothing half-written) and no givens are stored twice. It
// returns the submission count of every stored puzzle.
func inspect(tb testing.TB, path string) map[string]int64 {
	tb.Helper()
	bin := dbcheckBin.build(tb, "./testdata/dbcheck", "dbcheck")
	var stderr strings.Builder
	cmd := exec.Command(bin, path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("dbcheck %s: %v\n%s", path, err, stderr.String())
	}
	var s struct {
		Integrity         string
		Total, Uniq, Rows int64
		UniqRows          int64 `json:"uniq_rows"`
		Puzzles           map[string]int64
		Repeated          []string
	}
	if err := json.Unmarshal(out, &s); err != nil {
		tb.Fatalf("dbcheck output %.200s: %v", out, err)
	}
	if s.Integrity != "ok" {
		tb.Errorf("integrity_check: %s", s.Integrity)
	}
	if s.Total != s.Rows || s.Uniq != s.UniqRows {
		tb.Errorf("counts say %d puzzles (%d unique), the table holds %d (%d unique)", s.Total, s.Uniq, s.Rows, s.UniqRows)
	}
	if len(s.Repeated) > 0 {
		tb.Errorf("givens stored twice: %v", s.Repeated)
	}
	return s.Puzzles
}

// proc is a `sudoku serve` subprocess.
type proc struct {
	cmd  *exec.Cmd
	url  string
	logs *logBuffer
	done chan error
	once sync.Once
}

// startProc starts bin serve over dbPath on a free port and waits until it
// listens.
func startProc(tb testing.TB, bin, dbPath string, extra ...string) *proc {
	tb.Helper()
	logs := &logBuffer{addr: make(chan string, 1)}
	// Without the puzzle of the day's keeper: its rows would count as
	// submissions nobody sent.
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", dbPath, "--daily=false"}, extra...)
	p := &proc{cmd: exec.Command(bin, args...), logs: logs, done: make(chan error, 1)}
	p.cmd.Stderr = logs
	if err := p.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	tb.Cleanup(func() { p.kill() })
	select {
	case addr := <-logs.addr:
		p.url = "http://" + addr
	case err := <-p.done:
		tb.Fatalf("serve exited before listening: %v\n%s", err, logs)
	case <-time.After(30 * time.Second):
		tb.Fatalf("serve did not listen within 30 s:\n%s", logs)
	}
	return p
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill() {
	p.once.Do(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
}
