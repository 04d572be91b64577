package main

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/migrations"
)

// TestServeStartTogetherPostgres is issue 50's item 7 through `sudoku
// serve`: two new servers started at once on a database an older binary
// left (schema 22, graded by another solver). One migrates and withdraws
// the old grades; the other waits for it, says so, and serves: both
// answer /readyz 200 and take a submission, and neither exits.
func TestServeStartTogetherPostgres(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDB(t)
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "puzzles.txt")
	if err := os.WriteFile(file, []byte(strings.Join(puzzletest.Lines(t, puzzletest.Kaggle, 400), "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runCmd(t, "", "import", "--db", dsn, file); err != nil {
		t.Fatalf("import: %v\n%s", err, stderr)
	}
	// What the older binary left: its schema (the newer migrations taken
	// back), its solver's grades.
	raw, err := sql.Open("pgx", dsn+"&application_name=test-downgrade")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, raw, migrations.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 22); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE puzzles SET grade_version = 'old-solver' WHERE grade_version IS NOT NULL"); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	type started struct {
		s   *server
		err error
	}
	var servers [2]*server
	ch := make(chan started, 2)
	for range servers {
		go func() {
			s, err := startServeAsync(dsn, "--rate-limit", "0")
			ch <- started{s, err}
		}()
	}
	for i := range servers {
		r := <-ch
		if r.err != nil {
			t.Fatalf("a server started with another: %v", r.err)
		}
		servers[i] = r.s
		t.Cleanup(func() { r.s.stop() })
	}
	migrated, waited := 0, 0
	for _, s := range servers {
		waitReady(t, s)
		logs := s.logs.String()
		migrated += strings.Count(logs, `msg="database schema migrated"`)
		waited += strings.Count(logs, `msg="waited for another server's start-up on the database"`)
		if strings.Contains(logs, "from=22 to=22") || strings.Contains(logs, "lock timeout") ||
			strings.Contains(logs, "migrated by another process") { // what a loser that read the version too early says
			t.Errorf("a server logged:\n%s", logs)
		}
		res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, nil)
		if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK {
			t.Errorf("submission: status %d", res.StatusCode)
		}
	}
	if migrated != 1 {
		t.Errorf("%d servers logged a migration, want 1:\n%s\n----\n%s", migrated, servers[0].logs, servers[1].logs)
	}
	t.Logf("%d of the two servers waited for the other's start-up", waited)
	for _, s := range servers {
		if err := s.stop(); err != nil {
			t.Errorf("serve returned %v\n%s", err, s.logs)
		}
	}
}

// startServeAsync is startServe for a goroutine of its own: it returns
// what failed instead of failing the test.
func startServeAsync(dsn string, extra ...string) (*server, error) {
	logs := &logBuffer{addr: make(chan string, 1)}
	e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: logs}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", dsn, "--daily=false"}, extra...)
	go func() { done <- dispatch(ctx, e, args) }()
	s := &server{logs: logs}
	select {
	case addr := <-logs.addr:
		s.url = "http://" + addr
	case err := <-done:
		cancel()
		return nil, &startError{err, logs.String()}
	case <-time.After(2 * time.Minute):
		cancel()
		return nil, &startError{nil, logs.String()}
	}
	var stopErr error
	stopped := false
	s.stop = func() error {
		if !stopped {
			stopped = true
			cancel()
			stopErr = <-done
		}
		return stopErr
	}
	return s, nil
}

// startError is a server that stopped (err) or did not listen in time.
type startError struct {
	err  error
	logs string
}

func (e *startError) Error() string {
	if e.err == nil {
		return "no listening line within 2 minutes:\n" + e.logs
	}
	return e.err.Error() + "\n" + e.logs
}

// waitReady waits until s answers /readyz 200.
func waitReady(t *testing.T, s *server) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		res, err := http.Get(s.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/readyz not 200 within a minute (%v):\n%s", s.url, err, s.logs)
		}
	}
}
