package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestHostileRequests sends `sudoku serve` (real store) text meant to
// break out: markup, SQL, oversize bodies, through every way in (API body,
// query parameters, path). Each is refused with a 4xx, nothing is stored,
// and the database is intact afterwards.
func TestHostileRequests(t *testing.T) {
	dbPath := sqliteArchive(t)
	s := startServe(t, dbPath, "--rate-limit", "0")
	var first puzzleJSON
	if res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, &first); res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d", res.StatusCode)
	}
	const sqlText = `'; DROP TABLE puzzles; --`
	const script = `<script>alert(1)</script>`
	big := `{"puzzle": "` + strings.Repeat(" ", 1<<20) + easy + `"}`
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
	}{
		{"SQL as puzzle", "POST", "/api/puzzles", `{"puzzle": "` + sqlText + `"}`, 400},
		{"SQL after a puzzle", "POST", "/api/puzzles", `{"puzzle": "` + easy + " " + sqlText + `"}`, 400},
		{"script as puzzle", "POST", "/api/puzzles", `{"puzzle": "` + script + `"}`, 400},
		{"SQL in sort", "GET", "/api/puzzles?sort=" + url.QueryEscape("clues; "+sqlText), "", 400},
		{"SQL in cursor", "GET", "/api/puzzles?cursor=" + url.QueryEscape(sqlText), "", 400},
		{"SQL in limit", "GET", "/api/puzzles?limit=" + url.QueryEscape("1 OR 1=1"), "", 400},
		{"SQL in id", "GET", "/api/puzzles/" + url.PathEscape("1 OR 1=1"), "", 404},
		{"SQL in page id", "GET", "/puzzles/" + url.PathEscape("1; "+sqlText), "", 404},
		{"script in history sort", "GET", "/puzzles?sort=" + url.QueryEscape(script), "", 400},
		{"1 MiB body", "POST", "/api/puzzles", big, 413},
		{"1 MiB body to solve", "POST", "/api/solve", big, 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, s.url+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.300s", res.StatusCode, tc.status, b)
			}
			if strings.Contains(string(b), "<script>alert") {
				t.Errorf("markup echoed unescaped: %.300s", b)
			}
		})
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if got := inspect(t, dbPath); len(got) != 1 || got[easy] != 1 {
		t.Errorf("database holds %v, want only the one puzzle", got)
	}
}

// TestServeRateLimitByDefault: `sudoku serve` without --rate-limit limits
// each client to 10 writes per second with a burst of 30, answering 429 with
// Retry-After, and a forged X-Forwarded-For does not make a new client.
func TestServeRateLimitByDefault(t *testing.T) {
	s := startServe(t, sqliteArchive(t))
	statuses := map[int]int{}
	retryAfter := ""
	for i := range 60 {
		req, _ := http.NewRequest("POST", s.url+"/api/solve", strings.NewReader(`{"puzzle": "`+easy+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		statuses[res.StatusCode]++
		if res.StatusCode == http.StatusTooManyRequests {
			retryAfter = res.Header.Get("Retry-After")
		}
	}
	// 60 requests take well under 3 s, so at most 30 + 10/s pass.
	if statuses[http.StatusTooManyRequests] == 0 || statuses[http.StatusOK] < 30 || retryAfter != "1" {
		t.Errorf("statuses %v, Retry-After %q: want 30+ answered, then 429 with Retry-After 1", statuses, retryAfter)
	}
	t.Logf("60 POSTs in a row from one client: %v", statuses)
}

// TestServeHostilePuzzle submits the engine's worst known grid (no
// solution, about 820,000 nodes to prove it) to `sudoku serve` with its
// default budget and timeout, from several clients at once: the server's
// node budget (web.DefaultMaxNodes) refuses each as too hard (422) in a
// fraction of a second, or, if the machine is slow, the request timeout
// answers 503; meanwhile the server keeps answering reads.
func TestServeHostilePuzzle(t *testing.T) {
	racefree.Only(t)
	// Under -race the search is ~10x slower (racefree.Only); the
	// internal/web tests TestPathologicalPuzzle and TestHostileGridBudget
	// run under -race.
	if testing.Short() {
		t.Skip("a measurement")
	}
	const hostile = ".5...6.98.....2.17................3...........24..............6........531...9..."
	s := startServe(t, sqliteArchive(t), "--rate-limit", "0")
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		took  []time.Duration
		reads []time.Duration
	)
	done, readerDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			t0 := time.Now()
			res, err := http.Get(s.url + "/api/puzzles")
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			mu.Lock()
			reads = append(reads, time.Since(t0))
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			var body struct {
				Error string `json:"error"`
			}
			// Not call(): it may t.Fatal, which only the test goroutine may.
			res, err := http.Post(s.url+"/api/puzzles", "application/json", strings.NewReader(`{"puzzle": "`+hostile+`"}`))
			if err != nil {
				t.Error(err)
				return
			}
			json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
			mu.Lock()
			took = append(took, time.Since(t0))
			mu.Unlock()
			switch {
			case res.StatusCode == http.StatusUnprocessableEntity && strings.Contains(body.Error, "too hard"):
			case res.StatusCode == http.StatusServiceUnavailable && strings.Contains(body.Error, "took too long"):
			default:
				t.Errorf("status %d, error %q", res.StatusCode, body.Error)
			}
		}()
	}
	wg.Wait()
	close(done)
	<-readerDone
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(reads)
	if len(reads) == 0 {
		t.Fatal("no read answered while the searches ran")
	}
	t.Logf("2 hostile submissions answered after %v; %d reads meanwhile, median %s, max %s",
		took, len(reads), reads[len(reads)/2], reads[len(reads)-1])
}
