package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
)

// TestReadsDuringOutage stops the PostgreSQL cluster under a running
// server: reads answer 503 with Retry-After (they answered 500 and logged
// ERROR, while docs/storage.md promised 503), and answer again once the
// cluster is back.
func TestReadsDuringOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster: skipped with -short")
	}
	c := pgtest.Start(t)
	dsn := c.NewDB(t)
	s := startServe(t, dsn, "--rate-limit", "0", "--graders", "0")
	if res, err := submit(t.Context(), http.DefaultClient, s.url, easy); err != nil || res.status != http.StatusCreated {
		t.Fatalf("submit: %+v %v", res, err)
	}
	reads := []string{"/api/puzzles", "/puzzles/1", "/api/puzzles/1", "/stats", "/puzzles"}
	c.Pause(t)
	for _, path := range reads {
		res, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("GET %s with the database down: %d, Retry-After %q; want 503 with one", path, res.StatusCode, res.Header.Get("Retry-After"))
		}
	}
	if logs := s.logs.String(); strings.Contains(logs, "level=ERROR") {
		t.Errorf("an outage logged as a bug:\n%s", logs)
	}
	c.Resume(t)
	deadline := time.Now().Add(30 * time.Second)
	for _, path := range reads {
		for {
			res, err := http.Get(s.url + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET %s after the database came back: %d", path, res.StatusCode)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// TestServeWaitsForDatabase: a server started while PostgreSQL is down
// says so and tries again (serve --db-wait), and serves once it is up;
// with a short wait it gives up with the reason.
func TestServeWaitsForDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster: skipped with -short")
	}
	c := pgtest.Start(t)
	dsn := c.NewDB(t)
	c.Pause(t)
	if _, _, err := runCmd(t, "", "serve", "--addr", "127.0.0.1:0", "--db", dsn, "--db-wait", "1s"); err == nil || !strings.Contains(err.Error(), "gave up waiting 1s for the database") {
		t.Errorf("serve --db-wait 1s with the database down: %v", err)
	}
	logs := &logBuffer{addr: make(chan string, 1)}
	e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: logs}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- dispatch(ctx, e, []string{"serve", "--addr", "127.0.0.1:0", "--db", dsn, "--daily=false", "--graders", "0", "--db-wait", "5m"})
	}()
	for !strings.Contains(logs.String(), "database unavailable: waiting for it") {
		select {
		case err := <-done:
			t.Fatalf("serve gave up: %v\n%s", err, logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
	c.Resume(t)
	select {
	case addr := <-logs.addr:
		if res, err := http.Get("http://" + addr + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
			t.Errorf("healthz once the database is up: %v %v", res, err)
		}
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, logs)
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not listen once the database was up:\n%s", logs)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
