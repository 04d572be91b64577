package main

import (
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
