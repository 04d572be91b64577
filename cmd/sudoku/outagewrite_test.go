package main

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
)

// TestWritesDuringOutage stops PostgreSQL at once (immediate mode) under
// 16 clients submitting without pause, so that writes are in flight when
// it dies: every answer is a 201 or a 503 with Retry-After, never a 500
// (issue 50: 1 submission of 1,176 got 500, its connection broken under
// it), and nothing is logged as a bug. Each client stops after three
// refusals.
func TestWritesDuringOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster: skipped with -short")
	}
	c := pgtest.Start(t)
	s := startServe(t, c.NewDB(t), "--rate-limit", "0", "--graders", "0")
	src := newPuzzleSource(t)
	client := &http.Client{Timeout: 60 * time.Second}
	var acked atomic.Int64
	var mu sync.Mutex
	var bad []string
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for refused := 0; refused < 3; {
				status, retry, body, err := postPuzzle(client, s.url, src.next())
				switch {
				case err != nil:
					mu.Lock()
					bad = append(bad, err.Error())
					mu.Unlock()
					return
				case status == http.StatusCreated:
					acked.Add(1)
				case status == http.StatusServiceUnavailable && retry != "":
					refused++
				default:
					mu.Lock()
					bad = append(bad, status2string(status, retry, body))
					mu.Unlock()
					refused++
				}
			}
		}()
	}
	// The outage begins once writes flow.
	deadline := time.Now().Add(60 * time.Second)
	for acked.Load() < 200 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c.Pause(t)
	wg.Wait()
	t.Logf("%d submissions acknowledged before and while the database died", acked.Load())
	for _, b := range bad {
		t.Errorf("an answer other than 201 or 503 with Retry-After: %s", b)
	}
	if logs := s.logs.String(); strings.Contains(logs, "level=ERROR") {
		t.Errorf("the outage logged as a bug:\n%s", logs)
	}
}

// postPuzzle submits p and returns the status, Retry-After and body.
func postPuzzle(client *http.Client, base, p string) (status int, retry, body string, err error) {
	res, err := client.Post(base+"/api/puzzles", "application/json", strings.NewReader(`{"puzzle": "`+p+`"}`))
	if err != nil {
		return 0, "", "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), string(b), err
}

func status2string(status int, retry, body string) string {
	return http.StatusText(status) + " (Retry-After " + retry + "): " + body
}
