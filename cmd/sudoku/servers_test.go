package main

// Several `sudoku serve` processes sharing one archive (issue 16), on each
// database the archive can live in: an SQLite file that two processes open
// side by side, and a PostgreSQL database (a throwaway cluster from
// pgtest). The checks look at the archive through the store itself, so
// they read both databases the same way.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
)

// archiveRows opens the archive at dsn with the store, a client of its own
// beside the servers, and returns every stored puzzle in id order. It fails
// tb unless the archive's counters (Stats) are exactly what the rows add up
// to.
func archiveRows(tb testing.TB, dsn string) []record.Puzzle {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		tb.Fatalf("open the archive: %v", err)
	}
	defer db.Close()
	// Stats and the rows are read in two transactions: nothing may write
	// in between, so the servers are stopped or idle when this runs.
	got, err := db.Stats(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	var ps []record.Puzzle
	if err := db.Export(ctx, record.ListQuery{Sort: record.SortSubmitted}, func(p record.Puzzle) error {
		ps = append(ps, p)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	slices.SortFunc(ps, func(a, b record.Puzzle) int { return int(a.ID - b.ID) })
	if d := cmp.Diff(storetest.StatsOf(ps), got, cmpopts.EquateEmpty()); d != "" {
		tb.Errorf("the counters disagree with the %d rows (-rows +counters):\n%s", len(ps), d)
	}
	return ps
}

// submissionsOf maps the givens of ps (canonical text) to their submission
// counts, as inspect does.
func submissionsOf(ps []record.Puzzle) map[string]int64 {
	m := make(map[string]int64, len(ps))
	for _, p := range ps {
		m[p.Givens.String()] = p.Submissions
	}
	return m
}

// checkArchive checks the archive at dsn after a test's servers wrote to
// it: on SQLite with dbcheck too (integrity_check, givens stored twice),
// then through the store (counters equal to what the rows add up to). It
// returns each stored puzzle's submission count.
func checkArchive(tb testing.TB, dsn string) map[string]int64 {
	tb.Helper()
	if !store.IsPostgres(dsn) {
		inspect(tb, dsn)
	}
	ps := archiveRows(tb, dsn)
	got := submissionsOf(ps)
	if len(got) != len(ps) {
		tb.Errorf("%d rows hold %d distinct givens: givens stored twice", len(ps), len(got))
	}
	return got
}

// stopProc stops a server with SIGTERM, as an operator would, and fails tb
// unless it exits cleanly.
func stopProc(tb testing.TB, p *proc) {
	tb.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup's kill
		if err != nil {
			tb.Errorf("serve exited with %v on SIGTERM\n%s", err, p.logs)
		}
	case <-time.After(30 * time.Second):
		tb.Errorf("serve did not stop within 30 s of SIGTERM")
	}
}

// submitRetry is submit for a client that retries while the archive says
// 503 (busy: on SQLite, the other server or an import holds the write lock
// past the busy timeout), as a well-behaved client would; retries counts
// those answers.
func submitRetry(ctx context.Context, client *http.Client, base, p string, retries *atomic.Int64) (submitResult, error) {
	for {
		res, err := submit(ctx, client, base, p)
		if err != nil || res.status != http.StatusServiceUnavailable {
			return res, err
		}
		retries.Add(1)
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestServersShareArchive starts two servers on one archive: a puzzle
// submitted to one is there at once on the other, a repeat through the
// other counts on the same row, and a form token from one is accepted by
// the other (the CSRF secret comes from the archive, so a load balancer
// may send the page and its post to different servers).
func TestServersShareArchive(t *testing.T) {
	eachArchive(t, func(t *testing.T, dsn string) {
		sa := startServe(t, dsn, "--rate-limit", "0")
		sb := startServe(t, dsn, "--rate-limit", "0")

		var first, onB, dup, onA puzzleJSON
		if res := call(t, "POST", sa.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, &first); res.StatusCode != http.StatusCreated {
			t.Fatalf("submit to A: status %d", res.StatusCode)
		}
		if res := call(t, "GET", fmt.Sprintf("%s/api/puzzles/%d", sb.url, first.ID), "", &onB); res.StatusCode != http.StatusOK || onB.Puzzle != easy {
			t.Fatalf("B reads puzzle %d: status %d, %+v", first.ID, res.StatusCode, onB)
		}
		var page struct {
			Puzzles []puzzleJSON `json:"puzzles"`
			Total   int64        `json:"total"`
		}
		if res := call(t, "GET", sb.url+"/api/puzzles?sort=submitted", "", &page); res.StatusCode != http.StatusOK || page.Total != 1 ||
			len(page.Puzzles) != 1 || page.Puzzles[0].ID != first.ID {
			t.Fatalf("B lists: status %d, %+v", res.StatusCode, page)
		}
		if res := call(t, "POST", sb.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, &dup); res.StatusCode != http.StatusOK ||
			!dup.Duplicate || dup.ID != first.ID || dup.Submissions != 2 {
			t.Fatalf("repeat to B: status %d, %+v", res.StatusCode, dup)
		}
		if res := call(t, "GET", fmt.Sprintf("%s/api/puzzles/%d", sa.url, first.ID), "", &onA); res.StatusCode != http.StatusOK || onA.Submissions != 2 {
			t.Fatalf("A after the repeat: status %d, %+v", res.StatusCode, onA)
		}

		// A form served by A, posted to B. The cookie jar does not tell
		// the two apart (same host, another port), as behind one name.
		jar, _ := cookiejar.New(nil)
		browser := &http.Client{Jar: jar, Timeout: 20 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := browser.Get(sa.url + "/")
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("home page of A: %v %v", res, err)
		}
		res.Body.Close()
		u, _ := url.Parse(sa.url)
		var token string
		for _, c := range jar.Cookies(u) {
			if c.Name == "_csrf" {
				token = c.Value
			}
		}
		if token == "" {
			t.Fatal("A set no CSRF cookie")
		}
		res, err = browser.PostForm(sb.url+"/puzzles", url.Values{"puzzle": {bOther}, "_csrf": {token}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("A's form posted to B: status %d, want 303", res.StatusCode)
		}

		for _, s := range []*server{sa, sb} {
			if err := s.stop(); err != nil {
				t.Fatalf("serve returned %v\n%s", err, s.logs)
			}
		}
		got := checkArchive(t, dsn)
		if d := cmp.Diff(map[string]int64{easy: 2, bOther: 1}, got); d != "" {
			t.Errorf("archive (-want +got):\n%s", d)
		}
	})
}

// TestServersSameSubmissions submits the same puzzles to two server
// processes at once: each puzzle four times, twice through each server,
// the four requests in flight together. Exactly one of the four is
// answered 201 and the others 200 with the same id; afterwards the archive
// holds one row per puzzle with exactly four submissions, and its counters
// are exact.
func TestServersSameSubmissions(t *testing.T) {
	if testing.Short() {
		t.Skip("two server processes under load: skipped with -short")
	}
	bin := buildBinary(t)
	eachArchive(t, func(t *testing.T, dsn string) {
		servers := []*proc{startProc(t, bin, dsn, "--rate-limit", "0"), startProc(t, bin, dsn, "--rate-limit", "0")}
		src := newPuzzleSource(t)
		const puzzles, copies = 200, 4
		type job struct {
			p string
			s int // which server
		}
		jobs := make(chan job, puzzles*copies)
		list := make([]string, puzzles)
		for i := range list {
			list[i] = src.next()
			for k := range copies {
				jobs <- job{list[i], k % 2}
			}
		}
		close(jobs)

		var (
			mu      sync.Mutex
			created = map[string]int{}
			ids     = map[string]map[int64]bool{}
			retries atomic.Int64
			wg      sync.WaitGroup
		)
		start := time.Now()
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
		for range 16 {
			wg.Go(func() {
				for j := range jobs {
					res, err := submitRetry(context.Background(), client, servers[j.s].url, j.p, &retries)
					if err != nil || (res.status != http.StatusCreated && res.status != http.StatusOK) {
						t.Errorf("submit to server %d: %v, status %d, %s", j.s, err, res.status, res.body)
						continue
					}
					mu.Lock()
					if res.status == http.StatusCreated {
						created[j.p]++
					}
					if ids[j.p] == nil {
						ids[j.p] = map[int64]bool{}
					}
					ids[j.p][res.id] = true
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		t.Logf("%d submissions of %d puzzles through 2 servers in %s; %d answers 503 (retried)",
			puzzles*copies, puzzles, time.Since(start).Round(time.Millisecond), retries.Load())
		for _, p := range list {
			if created[p] != 1 || len(ids[p]) != 1 {
				t.Errorf("puzzle %s: %d answers 201, ids %v; want one 201 and one id", p, created[p], ids[p])
			}
		}
		for _, s := range servers {
			stopProc(t, s)
		}
		got := checkArchive(t, dsn)
		if len(got) != puzzles {
			t.Errorf("%d rows, want %d", len(got), puzzles)
		}
		for _, p := range list {
			if got[p] != copies {
				t.Errorf("puzzle %s: %d submissions stored, want %d", p, got[p], copies)
			}
		}
	})
}

// TestServersKillOne runs clients against two server processes on one
// archive and kills one of them with SIGKILL in the middle. The other
// keeps serving; afterwards every submission either server acknowledged
// is there (per puzzle at least the acknowledged count, at most that plus
// the requests the kill cut off), the counters are exact, and the killed
// server starts again on the archive without repair.
func TestServersKillOne(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped with -short")
	}
	bin := buildBinary(t)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	eachArchive(t, func(t *testing.T, dsn string) {
		servers := []*proc{startProc(t, bin, dsn, "--rate-limit", "0"), startProc(t, bin, dsn, "--rate-limit", "0")}
		src := newPuzzleSource(t)
		tl := newTally()
		rng := rand.New(rand.NewPCG(seed, 3))
		ctx, cancel := context.WithCancel(context.Background())
		var retries atomic.Int64
		var wg sync.WaitGroup
		for c := range 8 {
			wg.Go(func() {
				crng := rand.New(rand.NewPCG(seed, uint64(c)))
				client := &http.Client{Timeout: 10 * time.Second}
				for ctx.Err() == nil {
					pz, _ := tl.pick(crng.Uint64())
					if pz == "" || crng.IntN(10) < 7 {
						pz = src.next()
					}
					s := servers[c%2]
					res, err := submitRetry(ctx, client, s.url, pz, &retries)
					tl.record(t, pz, res, err)
				}
			})
		}
		wait := 300*time.Millisecond + time.Duration(rng.Int64N(int64(700*time.Millisecond)))
		time.Sleep(wait)
		before, _ := tl.total()
		servers[0].kill()
		time.Sleep(500 * time.Millisecond) // the survivor serves on alone
		cancel()
		wg.Wait()
		after, subs := tl.total()
		t.Logf("killed server A after %s with %d puzzles acknowledged; %d in all, %d acknowledged submissions; %d answers 503 (retried)",
			wait.Round(time.Millisecond), before, after, subs, retries.Load())
		if after == before {
			t.Errorf("the surviving server acknowledged nothing after the kill")
		}
		stopProc(t, servers[1])
		checkAcknowledged(t, checkArchive(t, dsn), tl)

		// The killed server comes back on the same archive.
		p := startProc(t, bin, dsn, "--rate-limit", "0")
		var got puzzleJSON
		pz, id := tl.pick(0)
		if res := call(t, "GET", fmt.Sprintf("%s/api/puzzles/%d", p.url, id), "", &got); res.StatusCode != http.StatusOK || got.Puzzle != pz {
			t.Errorf("restarted server, puzzle %d: status %d, %+v", id, res.StatusCode, got)
		}
		stopProc(t, p)
	})
}

// TestServersWithImport runs `sudoku import` of 5,000 puzzles while two
// server processes take submissions on the same archive. The import
// reports every line imported, the servers answer every submission (on
// SQLite some with 503 while the import's batch holds the write lock;
// clients retry), and afterwards the archive holds exactly the imported
// puzzles once each and the acknowledged ones with their counts.
func TestServersWithImport(t *testing.T) {
	if testing.Short() {
		t.Skip("two server processes and an import: skipped with -short")
	}
	bin := buildBinary(t)
	eachArchive(t, func(t *testing.T, dsn string) {
		servers := []*proc{startProc(t, bin, dsn, "--rate-limit", "0"), startProc(t, bin, dsn, "--rate-limit", "0")}
		src := newPuzzleSource(t)
		lines := make([]string, 5000)
		for i := range lines {
			lines[i] = src.next()
		}
		input := filepath.Join(t.TempDir(), "puzzles.txt")
		if err := os.WriteFile(input, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		tl := newTally()
		ctx, cancel := context.WithCancel(context.Background())
		var retries atomic.Int64
		var wg sync.WaitGroup
		for c := range 8 {
			wg.Go(func() {
				client := &http.Client{Timeout: 30 * time.Second}
				for i := 0; ctx.Err() == nil; i++ {
					pz, _ := tl.pick(uint64(i * (c + 1)))
					if pz == "" || i%4 != 0 {
						pz = src.next()
					}
					res, err := submitRetry(context.Background(), client, servers[c%2].url, pz, &retries)
					if err != nil || (res.status != http.StatusCreated && res.status != http.StatusOK) {
						t.Errorf("submit: %v, status %d, %s", err, res.status, res.body)
						return
					}
					tl.ack(pz, res.id)
				}
			})
		}
		out, err := exec.Command(bin, "import", "--db", dsn, input).Output()
		cancel()
		wg.Wait()
		var stderr string
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		if err != nil {
			t.Fatalf("import: %v\n%s%s", err, out, stderr)
		}
		if !regexp.MustCompile(`^imported ` + strconv.Itoa(len(lines)) + `, duplicates 0, rejected 0 in `).Match(out) {
			t.Errorf("import summary %q", out)
		}
		puzzles, subs := tl.total()
		t.Logf("import beside two servers: %s; the servers acknowledged %d submissions of %d puzzles meanwhile; %d answers 503 (retried)",
			strings.TrimSpace(string(out)), subs, puzzles, retries.Load())
		if puzzles == 0 {
			t.Error("the servers acknowledged nothing during the import")
		}
		for _, s := range servers {
			stopProc(t, s)
		}
		got := checkArchive(t, dsn)
		for i, p := range lines {
			if got[p] != 1 {
				t.Fatalf("imported line %d: %d submissions stored, want 1", i+1, got[p])
			}
			delete(got, p)
		}
		tl.mu.Lock()
		defer tl.mu.Unlock()
		for p, n := range tl.acked {
			if got[p] != n {
				t.Errorf("puzzle %s: %d submissions acknowledged, %d stored", p, n, got[p])
			}
		}
		if len(got) != len(tl.acked) {
			t.Errorf("%d rows beside the import's, %d puzzles acknowledged", len(got), len(tl.acked))
		}
	})
}
