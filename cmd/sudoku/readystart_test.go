package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startingRE finds where serve's port answers, in its first log line.
var startingRE = regexp.MustCompile(`msg=starting addr=(\S+)`)

// TestServeAnswers503WhileMigrating: from the moment serve has bound its
// port it answers, 503 at once with Retry-After and what it is doing,
// while it migrates the schema (held open by the test's hook: an event,
// not a sleep); once ready, /readyz says ready on the same port (issue
// 50: the port was bound and /readyz hung through a 116 s upgrade).
func TestServeAnswers503WhileMigrating(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	logs := &logBuffer{addr: make(chan string, 1)}
	migrating, release := make(chan struct{}), make(chan struct{})
	e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: logs,
		migrating: func(from, to int64) {
			close(migrating)
			<-release
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- dispatch(ctx, e, []string{"serve", "--addr", "127.0.0.1:0", "--db", dbPath, "--daily=false"})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	select {
	case <-migrating:
	case err := <-done:
		t.Fatalf("serve stopped before migrating: %v\n%s", err, logs)
	}
	m := startingRE.FindStringSubmatch(logs.String())
	if m == nil {
		close(release)
		t.Fatalf("no start-up line with the address:\n%s", logs)
	}
	base := "http://" + m[1]
	client := &http.Client{Timeout: 5 * time.Second} // "at once": a hang fails
	for _, path := range []string{"/readyz", "/healthz", "/api/puzzles", "/"} {
		res, err := client.Get(base + path)
		if err != nil {
			close(release)
			t.Fatalf("GET %s while migrating: %v", path, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("GET %s while migrating: %d, Retry-After %q; want 503 with Retry-After", path, res.StatusCode, res.Header.Get("Retry-After"))
		}
		if !strings.Contains(string(body), "creating the database schema") {
			t.Errorf("GET %s while migrating: body %q does not say what the server is doing", path, body)
		}
		if path == "/readyz" {
			var b struct{ Error string }
			if err := json.Unmarshal(body, &b); err != nil {
				t.Errorf("/readyz: not a JSON error: %q", body)
			}
		}
	}
	close(release)
	select {
	case <-logs.addr: // "listening": ready
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, logs)
	case <-time.After(30 * time.Second):
		t.Fatalf("not ready 30 s after the migration:\n%s", logs)
	}
	res, err := client.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != "ready" {
		t.Errorf("/readyz once ready: %d %q, want 200 ready", res.StatusCode, body)
	}
}

// TestServeAnswers503WhileWaitingForDatabase: a server whose PostgreSQL is
// not up yet (nothing listens where --db points) answers 503 with
// Retry-After at once, saying it waits for the database, for as long as it
// waits (serve --db-wait).
func TestServeAnswers503WhileWaitingForDatabase(t *testing.T) {
	logs := &logBuffer{addr: make(chan string, 1)}
	e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: logs}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- dispatch(ctx, e, []string{"serve", "--addr", "127.0.0.1:0", "--db", "postgres://sudoku@127.0.0.1:1/sudoku?connect_timeout=2",
			"--db-wait", "2m", "--daily=false"})
	}()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(logs.String(), "waiting for it") {
		if time.Now().After(deadline) {
			t.Fatalf("no line saying the server waits for its database:\n%s", logs)
		}
		time.Sleep(20 * time.Millisecond) // polls the log for the event
	}
	m := startingRE.FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no start-up line with the address:\n%s", logs)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	res, err := client.Get("http://" + m[1] + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "waiting for the database") {
		t.Errorf("/readyz while waiting: %d, Retry-After %q, %q; want 503 saying it waits for the database", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
}
