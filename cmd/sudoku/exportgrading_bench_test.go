package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// Issue 50: two slow exports (the anonymous allowance) stopped all
// background grading on a 2-core server, 0 of 1,000 easy puzzles graded
// in 10 s while they ran. The graders' gate (bulk.Activity) counted each
// export as a request at work for as long as it streamed, and a slow
// download streams for minutes while its goroutine only waits for the
// client: two of them filled both cores' places.
const (
	gradeBenchPuzzles = 3000    // easy puzzles graded again in each phase
	gradeBenchRate    = 4 << 10 // bytes per second each export's client reads
	gradeBenchWait    = 20 * time.Second
)

// BenchmarkGradingBesideExports measures the background graders' rate
// (graded/s) on an idle server and on the same server with every export
// turn streaming to a slow client (two visitors, two moderators: docs/api.md
// "Export turns"), and their ratio (issue 50's target: at least 0.5). Each
// phase withdraws every grade (store.ResetGrades) and times the graders
// from their first commit to the last of gradeBenchPuzzles; a phase in
// which nothing is graded within gradeBenchWait counts 0.
//
//	go test -run '^$' -bench GradingBesideExports -benchtime 3x ./cmd/sudoku
func BenchmarkGradingBesideExports(b *testing.B) {
	dbPath := filepath.Join(b.TempDir(), "sudoku.db")
	src := filepath.Join(b.TempDir(), "easy.txt")
	if err := os.WriteFile(src, []byte(strings.Join(puzzletest.Lines(b, puzzletest.Kaggle, gradeBenchPuzzles), "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	if err := dispatch(context.Background(), e, []string{"import", "--db", dbPath, src}); err != nil {
		b.Fatal(err)
	}
	tokens := benchModerators(b, dbPath, 2)
	opened := make(chan *store.DB, 1)
	s := startServeEnv(b, dbPath, func(db *store.DB) { opened <- db }, "--rate-limit", "0", "--trusted-proxy", "127.0.0.1/32")
	db := <-opened
	// The machine's load varies (other processes): the phases alternate,
	// and the means of each are compared.
	var idle, busy float64
	var n int
	for ; b.Loop(); n++ {
		idle += gradeRate(b, db, fmt.Sprintf("idle-%d", n))
		stop := busyExports(b, s.url, tokens)
		busy += gradeRate(b, db, fmt.Sprintf("busy-%d", n))
		stop()
	}
	idle, busy = idle/float64(n), busy/float64(n)
	b.ReportMetric(idle, "graded/s-idle")
	b.ReportMetric(busy, "graded/s-exports")
	b.ReportMetric(busy/max(idle, 1e-9), "ratio")
}

// benchModerators makes n moderators in the archive at dbPath and returns
// an API token of each.
func benchModerators(b *testing.B, dbPath string, n int) []string {
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var tokens []string
	for i := range n {
		name := fmt.Sprintf("mod%d", i)
		hash, err := account.HashPassword("password of " + name)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.AddUser(ctx, name, hash, account.RoleModerator, moderation.CLI()); err != nil {
			b.Fatal(err)
		}
		token, th := account.NewAPIToken()
		if _, err := db.AddToken(ctx, name, th, moderation.CLI()); err != nil {
			b.Fatal(err)
		}
		tokens = append(tokens, token)
	}
	return tokens
}

// gradeRate withdraws every grade and returns the graders' rate from their
// first commit until no grade is missing.
func gradeRate(b *testing.B, db *store.DB, version string) float64 {
	ctx := context.Background()
	total, err := db.ResetGrades(ctx, version)
	if err != nil {
		b.Fatal(err)
	}
	var first time.Time
	var left0 int64
	deadline := time.Now().Add(gradeBenchWait)
	for time.Now().Before(deadline) {
		left, err := db.CountUngraded(ctx)
		if err != nil {
			b.Fatal(err)
		}
		switch {
		case left == 0 && !first.IsZero():
			return float64(left0) / time.Since(first).Seconds()
		case left == 0:
			return float64(total) / 0.02 // all within one poll: more than we can see
		case first.IsZero() && left < total:
			first, left0 = time.Now(), left
		}
		time.Sleep(20 * time.Millisecond)
	}
	if first.IsZero() {
		b.Logf("%s: nothing graded in %v", version, gradeBenchWait)
		return 0
	}
	left, _ := db.CountUngraded(ctx)
	return float64(left0-left) / time.Since(first).Seconds()
}

// busyExports starts a slow JSON export on every export turn (two
// visitors by their forwarded addresses, and each moderator's token), and
// returns once all are streaming; the returned function ends them.
func busyExports(b *testing.B, base string, tokens []string) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	streaming := make(chan error, 2+len(tokens))
	start := func(set func(http.Header)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/export?format=json", nil)
			set(req.Header)
			client := &http.Client{Transport: &http.Transport{DialContext: slowDialer().DialContext, DisableCompression: true}}
			res, err := client.Do(req)
			if err == nil && res.StatusCode != http.StatusOK {
				err = fmt.Errorf("export: status %d", res.StatusCode)
			}
			streaming <- err
			if err != nil {
				return
			}
			defer res.Body.Close()
			_, _ = io.Copy(io.Discard, &pacedReader{r: res.Body, rate: gradeBenchRate, start: time.Now()})
		}()
	}
	for i := range 2 {
		start(func(h http.Header) { h.Set("X-Forwarded-For", fmt.Sprintf("192.0.2.%d", i+1)) })
	}
	for _, tok := range tokens {
		start(func(h http.Header) { h.Set("Authorization", "Bearer "+tok) })
	}
	for range 2 + len(tokens) {
		if err := <-streaming; err != nil {
			cancel()
			b.Fatal(err)
		}
	}
	return func() { cancel(); wg.Wait() }
}
