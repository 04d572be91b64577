package web

import (
	"context"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// The fair search gate (issue 45): the work a read asks for never takes
// the writes' turns, practice boards come from a cache, and every answer
// comes within its deadline or is a 503 with Retry-After.

// TestChainPracticeAnswersQuickly: practice of a chain technique with
// limit=20, on an archive of the hardest puzzles whose paths nobody has
// walked, answers 200 or 503 with Retry-After within the walker's wait,
// never after a search of its own (it was 31.9 s and a closed
// connection); asked again once the walker is done, it answers 200 with
// the boards, each true on its board.
func TestChainPracticeAnswersQuickly(t *testing.T) {
	t.Parallel() // it waits for walks of nested chains: beside the others
	db, all := gradedArchive(t, hardLines(t, 6))
	s := New(AllParts(db), Config{Logger: quiet})
	byID := map[int64]record.Puzzle{}
	for _, p := range all {
		byID[p.ID] = p
	}
	for _, slug := range []string{"nishio-forcing-chain", "xy-chain", "cell-forcing-chains"} {
		tech, ok := logic.TechniqueByName(slug)
		if !ok {
			continue
		}
		start := time.Now()
		rec := get(t, s, "/api/techniques/"+slug+"/practice?limit=20")
		took := time.Since(start)
		switch {
		case took > 15*time.Second: // the request's deadline is 10 s (the walker's wait 2 s); 5 s of margin for a loaded machine
			t.Errorf("%s: answered after %s", slug, took)
		case rec.Code == http.StatusServiceUnavailable:
			if rec.Header().Get("Retry-After") == "" {
				t.Errorf("%s: 503 without Retry-After", slug)
			}
		case rec.Code != http.StatusOK:
			t.Errorf("%s: %d %s", slug, rec.Code, rec.Body)
		}
		// Once the walker has walked them, the boards are there at once.
		waitUntil(t, 2*time.Minute, func() bool {
			return get(t, s, "/api/techniques/"+slug+"/practice?limit=20").Code == http.StatusOK
		})
		start = time.Now()
		rec = get(t, s, "/api/techniques/"+slug+"/practice?limit=20")
		if rec.Code != http.StatusOK || time.Since(start) > 10*time.Second { // no search: well inside the deadline
			t.Errorf("%s again: %d after %s", slug, rec.Code, time.Since(start))
		}
		res := decode[practiceResponse](t, rec)
		checkPositions(t, tech, res, byID)
		t.Logf("%s: %d boards", slug, len(res.Positions))
	}
}

// waitUntil polls cond until it holds, for at most d (the bound only ends
// a test that would hang).
func waitUntil(t testing.TB, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// boardsFrom reads the count of "Boards from N archived puzzles" on a
// technique's page, -1 when the page offers no practice boards.
var boardsFrom = regexp.MustCompile(`Boards from (\d+) archived puzzles?`)

// TestTechniquePagesOfferWhatPracticeFinds: every technique's page offers
// practice boards only when the practice page has some, and the count it
// shows is the number of boards practice answers (the newcomer saw "boards
// from 2 archived puzzles" on xy-chain and 4-strong-links, and practice
// pages that found none); the practice page's last board has no "next".
// Both stores: the index practice reads is each store's.
//
// A walk of every technique's pages one request at a time: under -race the
// hardest puzzles' explanations outlast the request's deadline (10 s)
// every time, so it runs in make test's pass without the detector; the
// read lane's concurrency is TestReadsNeverHoldWrites' and
// TestReadShareIsPerClient's, under it.
func TestTechniquePagesOfferWhatPracticeFinds(t *testing.T) {
	racefree.Only(t)
	t.Parallel()
	lines := append(puzzletest.Lines(t, "sudokuexchange_diabolical_even.txt", 24), hardLines(t, 3)...)
	t.Run("SQLite", func(t *testing.T) {
		t.Parallel()
		db, _ := gradedArchive(t, lines)
		offerWhatPracticeFinds(t, New(AllParts(db), Config{Logger: quiet}))
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		t.Parallel()
		db, _ := gradedArchiveAt(t, pgArchive(t), lines)
		offerWhatPracticeFinds(t, New(AllParts(db), Config{Logger: quiet}))
	})
}

// patientGet is get as a well-behaved client does it: a 503 with
// Retry-After (the request's deadline passed on a loaded machine: the
// page's example step is a search in the read lane) is asked again, for
// up to three minutes; any other answer is returned as it is.
func patientGet(t *testing.T, s *Server, path string) *httptest.ResponseRecorder {
	t.Helper()
	var rec *httptest.ResponseRecorder
	waitUntil(t, 3*time.Minute, func() bool {
		rec = get(t, s, path)
		return rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == ""
	})
	return rec
}

// offerWhatPracticeFinds checks, for every technique, that s's technique
// page offers the boards its practice answers.
func offerWhatPracticeFinds(t *testing.T, s *Server) {
	offered := 0
	for _, tech := range logic.Techniques() {
		path := "/api/techniques/" + tech.Slug + "/practice?limit=20"
		// Once the walker has walked every puzzle asked for, the boards
		// stay as they are (until a grade records more).
		waitUntil(t, 3*time.Minute, func() bool { return get(t, s, path).Code == http.StatusOK && !s.arch.PracticeWalking() })
		n := len(decode[practiceResponse](t, get(t, s, path)).Positions)
		doc := page(t, patientGet(t, s, "/techniques/"+tech.Slug), http.StatusOK)
		shown := -1
		if m := boardsFrom.FindStringSubmatch(tid(doc, "practice-positions").Text()); m != nil {
			shown, _ = strconv.Atoi(m[1])
		}
		switch {
		case n == 0 && tid(doc, "practice-positions").Length() != 0:
			t.Errorf("%s: the page offers practice (%d), practice has no board", tech.Name, shown)
		case n > 0 && shown != n:
			t.Errorf("%s: the page says %d boards, practice answers %d", tech.Name, shown, n)
		case n > 0:
			offered++
			last := page(t, patientGet(t, s, "/techniques/"+tech.Slug+"/practice?n="+strconv.Itoa(n-1)), http.StatusOK)
			if tid(last, "practice-board").Length() != 1 || tid(last, "practice-next").Length() != 0 {
				t.Errorf("%s: board %d of %d: %d boards, %d next links", tech.Name, n-1, n,
					tid(last, "practice-board").Length(), tid(last, "practice-next").Length())
			}
		}
	}
	if offered < 10 {
		t.Errorf("only %d techniques offer practice: a poor archive", offered)
	}
}

// TestReadsNeverHoldWrites: with the read lane held (a client's long
// explanation), POST /api/solve, POST /api/puzzles and POST /api/analyse
// answer as ever, and a read that needs a search waits its turn, then
// answers 503 with Retry-After; with the writes' gate held, reads that
// search still answer. A client over its share of the read lane is
// refused at once, another client is not.
func TestReadsNeverHoldWrites(t *testing.T) {
	db, all := gradedArchive(t, puzzletest.Lines(t, "sudokuexchange_diabolical_even.txt", 2))
	s := New(AllParts(db), Config{Logger: quiet, SearchQueueTimeout: 100 * time.Millisecond})
	if err := s.arch.ReadGate().Enter(t.Context()); err != nil {
		t.Fatal(err)
	}
	for i, path := range []string{"/api/solve", "/api/puzzles"} {
		if rec := post(t, s, path, puzzleBody(relabel(easy, 100+i))); rec.Code >= 300 {
			t.Errorf("%s with the read lane held: %d %s", path, rec.Code, rec.Body)
		}
	}
	explain := "/api/puzzles/" + strconv.FormatInt(all[0].ID, 10) + "/explain"
	if rec := get(t, s, explain); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("explain with the read lane held: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if rec := post(t, s, "/api/hint", `{"puzzle": "`+easy+`"}`); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("hint with the read lane held: %d", rec.Code)
	}
	s.arch.ReadGate().Leave()

	if err := s.arch.SearchGate().Enter(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer s.arch.SearchGate().Leave()
	if rec := get(t, s, explain); rec.Code != http.StatusOK {
		t.Errorf("explain with the writes' gate held: %d %s", rec.Code, rec.Body)
	}
	if rec := post(t, s, "/api/hint", `{"puzzle": "`+easy+`"}`); rec.Code != http.StatusOK {
		t.Errorf("hint with the writes' gate held: %d %s", rec.Code, rec.Body)
	}
	if rec := post(t, s, "/api/solve", puzzleBody(relabel(easy, 200))); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("solve with the writes' gate held: %d", rec.Code)
	}
}

// TestReadShareIsPerClient: one client (an IPv6 /64) holding its share of
// the read lane is refused at once, with Retry-After, even from another
// address of its /64; another client waits its turn and gets it.
func TestReadShareIsPerClient(t *testing.T) {
	t.Parallel()
	db, all := gradedArchive(t, puzzletest.Lines(t, "sudokuexchange_diabolical_even.txt", 3))
	s := New(AllParts(db), Config{Logger: quiet, SearchQueueTimeout: 10 * time.Second})
	// Client 2001:db8:1::/64 holds two turns (one running, one queued).
	release := make(chan struct{})
	held := make(chan struct{}, 2)
	for range 2 {
		go s.arch.Searching(readerCtx(t, "2001:db8:1::/64"), func() error { held <- struct{}{}; <-release; return nil })
	}
	<-held
	waitUntil(t, 10*time.Second, func() bool { w, _, _ := s.arch.ReadWaits(); return w >= 1 })
	req := httptestRequest(http.MethodGet, "/api/puzzles/"+strconv.FormatInt(all[1].ID, 10)+"/explain", "")
	req.RemoteAddr = "[2001:db8:1::77]:4000"
	start := time.Now()
	rec := serve(s, req)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || time.Since(start) > 8*time.Second { // at once, not after the queue's wait of 10 s
		t.Errorf("same /64: %d after %s, Retry-After %q", rec.Code, time.Since(start), rec.Header().Get("Retry-After"))
	}
	other := make(chan int)
	go func() {
		req := httptestRequest(http.MethodGet, "/api/puzzles/"+strconv.FormatInt(all[1].ID, 10)+"/explain", "")
		req.RemoteAddr = "[2001:db8:2::1]:4000"
		other <- serve(s, req).Code
	}()
	close(release)
	if code := <-other; code != http.StatusOK {
		t.Errorf("another client: %d", code)
	}
}

// readerCtx is a read's context for client who, as the read lane sees it.
func readerCtx(t *testing.T, who string) context.Context {
	return archive.ForReader(t.Context(), who)
}
