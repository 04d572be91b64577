package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// gradeState is a puzzle object's grade, as GET /api/puzzles/{id} gives it.
type gradeState struct {
	ID          int64    `json:"id"`
	Puzzle      string   `json:"puzzle"`
	Grade       *float64 `json:"grade"`
	GradeEP     *float64 `json:"grade_ep"`
	GradeED     *float64 `json:"grade_ed"`
	Techniques  []string `json:"techniques"`
	GradeStatus string   `json:"grade_status"`
}

// healthVerbose is GET /healthz?verbose.
type healthVerbose struct {
	Status     string `json:"status"`
	GradeQueue *int64 `json:"grade_queue"`
}

// waitGraded polls /healthz?verbose until the grade queue is empty.
func waitGraded(t *testing.T, url string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var h healthVerbose
		call(t, http.MethodGet, url+"/healthz?verbose", "", &h)
		if h.GradeQueue != nil && *h.GradeQueue == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("grade queue still %v after %v", h.GradeQueue, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitSomeGraded polls /healthz?verbose until the grade queue is below
// total: some grades are committed.
func waitSomeGraded(t *testing.T, url string, total int64, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var h healthVerbose
		call(t, http.MethodGet, url+"/healthz?verbose", "", &h)
		if h.GradeQueue != nil && *h.GradeQueue < total {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("grade queue still %v after %v", h.GradeQueue, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestGradesSurviveKill floods `sudoku serve` with distinct diabolical
// puzzles, kills it with SIGKILL while grades are pending, and restarts it:
// every acknowledged puzzle is there, and every one is graded after the
// restart, with the grade the logical solver gives it.
func TestGradesSurviveKill(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped with -short")
	}
	bin := buildBinary(t)
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	lines := puzzletest.Lines(t, puzzletest.Diabolical, 4000)
	p := startProc(t, bin, dbPath, "--rate-limit", "0")

	acked := floodThenKill(p, lines, 1500*time.Millisecond)
	if len(acked) == 0 {
		t.Fatal("nothing acknowledged before the kill")
	}

	// What the kill left: every acknowledged puzzle, some still pending.
	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := db.CountUngraded(context.Background())
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("killed with %d puzzles acknowledged, %d pending", len(acked), pending)
	if pending == 0 {
		t.Error("no grade was pending at the kill: the test shows nothing")
	}

	p = startProc(t, bin, dbPath, "--rate-limit", "0")
	waitGraded(t, p.url, 5*time.Minute)
	for id, line := range acked {
		var got gradeState
		if res := call(t, http.MethodGet, p.url+"/api/puzzles/"+itoa(id), "", &got); res.StatusCode != http.StatusOK {
			t.Fatalf("acknowledged puzzle %d: %s", id, res.Status)
		}
		if got.Puzzle != line || got.GradeStatus != "done" || got.Grade == nil {
			t.Fatalf("puzzle %d after the restart: %+v, want %s graded", id, got, line)
		}
	}
	// A sample checked against the solver itself.
	checkGradesSample(t, p.url, acked, 20)
	stopWithin(t, p, 15*time.Second)
}

// floodThenKill submits lines to p from 16 clients and kills p after
// wait; it returns the acknowledged puzzles by id.
func floodThenKill(p *proc, lines []string, wait time.Duration) map[int64]string {
	var mu sync.Mutex
	acked := map[int64]string{}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	const clients = 16
	for c := range clients {
		wg.Go(func() {
			client := &http.Client{Timeout: 10 * time.Second}
			for i := c; i < len(lines) && ctx.Err() == nil; i += clients {
				res, err := submit(ctx, client, p.url, lines[i])
				if err == nil && (res.status == http.StatusCreated || res.status == http.StatusOK) {
					mu.Lock()
					acked[res.id] = lines[i]
					mu.Unlock()
				}
			}
		})
	}
	time.Sleep(wait)
	p.kill()
	cancel()
	wg.Wait()
	return acked
}

// checkGradesSample checks up to limit of the acknowledged puzzles' grades,
// as the server at base answers them, against the logical solver itself.
func checkGradesSample(t *testing.T, base string, acked map[int64]string, limit int) {
	t.Helper()
	n := 0
	for id, line := range acked {
		if n++; n > limit {
			break
		}
		g, _ := sudoku.Parse(line)
		want, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		logic.GradePuzzle(&want)
		var got gradeState
		call(t, http.MethodGet, base+"/api/puzzles/"+itoa(id), "", &got)
		if *got.Grade != *want.Grade || *got.GradeEP != *want.GradeEP || *got.GradeED != *want.GradeED {
			t.Errorf("puzzle %d graded %v/%v/%v, the solver gives %v/%v/%v", id, *got.Grade, *got.GradeEP, *got.GradeED,
				*want.Grade, *want.GradeEP, *want.GradeED)
		}
	}
}

// stopWithin sends SIGTERM and fails unless the server exits cleanly
// within limit; it returns how long the exit took.
func stopWithin(t *testing.T, p *proc, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup's kill
		if err != nil {
			t.Errorf("serve exited with %v on SIGTERM\n%s", err, p.logs)
		}
	case <-time.After(limit):
		t.Fatalf("serve did not exit within %v of SIGTERM\n%s", limit, p.logs)
	}
	return time.Since(start)
}

// TestServeStopsWhileGrading starts `sudoku serve` on an archive of 2,000
// of the hardest puzzles, all waiting for their grade, and stops it with
// SIGTERM while its graders work: it exits within the documented 15 s,
// the grades it finished are kept, and the next start grades the rest.
func TestServeStopsWhileGrading(t *testing.T) {
	racefree.Only(t)
	if testing.Short() {
		t.Skip("builds and runs the binary: skipped with -short")
	}
	bin := buildBinary(t)
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	var ps []record.Puzzle
	for _, line := range puzzletest.Lines(t, puzzletest.Forum1905, 2000) {
		g, _ := sudoku.Parse(line)
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := db.AddMany(context.Background(), ps); err != nil {
		t.Fatal(err)
	}
	db.Close()

	p := startProc(t, bin, dbPath)
	// The graders are at work: a grade of these takes from a fraction of a
	// second to seconds (nested forcing chains), so wait for the first
	// commits, then stop while the rest are in the graders' hands.
	waitSomeGraded(t, p.url, int64(len(ps)), 2*time.Minute)
	took := stopWithin(t, p, 15*time.Second)
	db, err = store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	left, err := db.CountUngraded(context.Background())
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stopped in %v with %d of %d graded", took.Round(time.Millisecond), int64(len(ps))-left, len(ps))
	if left == 0 || left == int64(len(ps)) {
		t.Errorf("%d of %d pending after the stop: want some graded and kept, some left", left, len(ps))
	}
}

// itoa formats an id.
func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestSubmitThenGrade: a submission is answered with grade_status pending
// (its grade comes later), the API and the puzzle page say so while no
// grader runs (--graders 0), and a server with graders grades it: the API
// then gives the grade, its two other figures and the techniques.
func TestSubmitThenGrade(t *testing.T) {
	dbPath := sqliteArchive(t)
	line := puzzletest.Lines(t, puzzletest.Diabolical, 1)[0]
	s := startServe(t, dbPath, "--graders", "0")
	var got gradeState
	if res := call(t, http.MethodPost, s.url+"/api/puzzles", `{"puzzle": "`+line+`"}`, &got); res.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %s", res.Status)
	}
	if got.GradeStatus != "pending" || got.Grade != nil || got.GradeEP != nil || len(got.Techniques) != 0 {
		t.Errorf("submit answered %+v, want grade_status pending and no grade yet", got)
	}
	var h healthVerbose
	call(t, http.MethodGet, s.url+"/healthz?verbose", "", &h)
	if h.Status != "ok" || h.GradeQueue != nil {
		t.Errorf("/healthz?verbose without graders: %+v, want ok and no queue", h)
	}
	page := get(t, s.url+"/puzzles/"+itoa(got.ID))
	if !strings.Contains(page, "grading…") || !strings.Contains(page, `data-grading="`+itoa(got.ID)+`"`) {
		t.Errorf("the puzzle page of a pending grade does not say grading… nor look again:\n%s", page)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}

	s = startServe(t, dbPath)
	waitGraded(t, s.url, time.Minute)
	call(t, http.MethodGet, s.url+"/api/puzzles/"+itoa(got.ID), "", &got)
	if got.GradeStatus != "done" || got.Grade == nil || got.GradeEP == nil || got.GradeED == nil || len(got.Techniques) == 0 {
		t.Fatalf("after the graders: %+v, want a grade and its figures", got)
	}
	if !(*got.GradeED <= *got.GradeEP && *got.GradeEP <= *got.Grade) {
		t.Errorf("grade_ed %v, grade_ep %v, grade %v: want ed <= ep <= grade", *got.GradeED, *got.GradeEP, *got.Grade)
	}
	page = get(t, s.url+"/puzzles/"+itoa(got.ID))
	if strings.Contains(page, "grading…") || strings.Contains(page, "data-grading") {
		t.Error("the puzzle page of a graded puzzle still says grading…")
	}
}

// get returns the body of a GET.
func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", url, res.Status, err)
	}
	return string(b)
}

// TestBrowserGradeArrives opens the page of a puzzle whose grade is
// pending (a server without graders), grades the puzzle beside the server,
// and watches the page: it says "grading…", then shows the grade by itself,
// without a reload.
func TestBrowserGradeArrives(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t) // before the server: a missing browser skips at once
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	s := startServe(t, dbPath, "--graders", "0", "--rate-limit", "0")
	line := puzzletest.Lines(t, puzzletest.Diabolical, 1)[0]
	var got gradeState
	call(t, http.MethodPost, s.url+"/api/puzzles", `{"puzzle": "`+line+`"}`, &got)
	value := `document.querySelector('[data-testid="measure-grade"] .measure-value').textContent`
	chromeStep(t, ctx, "open the puzzle page",
		chromedp.Navigate(s.url+"/puzzles/"+itoa(got.ID)),
		chromedp.WaitVisible(tidSel("board")),
	)
	if v := chromeJS[string](t, ctx, value); v != "grading…" {
		t.Fatalf("pending grade shown as %q, want grading…", v)
	}
	chromeJS[any](t, ctx, `window.notReloaded = true`)

	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := bulk.Grade(context.Background(), db, logic.GradePuzzle, bulk.PassOptions{Workers: 1})
	db.Close()
	if err != nil || n != 1 {
		t.Fatalf("graded %d puzzles (%v), want 1", n, err)
	}
	call(t, http.MethodGet, s.url+"/api/puzzles/"+itoa(got.ID), "", &got)
	want := strconv.FormatFloat(*got.Grade, 'f', 1, 64)
	chromeValue(t, ctx, "wait for the grade to show", chromedp.Poll[bool](value+` === "`+want+`"`, chromedp.WithPollingTimeout(15*time.Second)))
	if !chromeJS[bool](t, ctx, `window.notReloaded === true`) {
		t.Error("the page reloaded to show the grade")
	}
}
