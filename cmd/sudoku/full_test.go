package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/store"
)

// startServeOpened runs `sudoku serve` like startServe and returns the
// *store.DB it opened, through the env hook the command offers tests.
func startServeOpened(t *testing.T, dbPath string, extra ...string) (*server, *store.DB) {
	t.Helper()
	opened := make(chan *store.DB, 1)
	s := startServeEnv(t, dbPath, func(db *store.DB) { opened <- db }, extra...)
	return s, <-opened
}

// TestFullDisk fills the database of a running `sudoku serve` (PRAGMA
// max_page_count at the file's current size, through the store the server
// uses): submissions through the API and the form fail with 503 and a clear
// message, reads go on, nothing half-written stays, and once the limit is
// raised the refused puzzles are accepted, without a restart.
func TestFullDisk(t *testing.T) {
	dbPath := sqliteArchive(t)
	s, db := startServeOpened(t, dbPath, "--rate-limit", "0")
	ctx := context.Background()
	client := &http.Client{Timeout: 20 * time.Second}
	src := newPuzzleSource(t)
	var acked []string
	for range 30 {
		p := src.next()
		res, err := submit(ctx, client, s.url, p)
		if err != nil || res.status != http.StatusCreated {
			t.Fatalf("before the disk is full: %v, %+v", err, res)
		}
		acked = append(acked, p)
	}

	orig, err := db.SetMaxPageCount(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := db.SetMaxPageCount(ctx, 1) // clamped to the current size
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("database limited to its current %d pages (limit was %d)", pages, orig)
	more, refused := submitUntilFull(t, client, s.url, src)
	acked = append(acked, more...)
	t.Logf("%d puzzles accepted, then %d refused with 503", len(acked), len(refused))

	// The form says so too, on its page.
	more, formRefused := postFormUntilFull(t, s.url, src)
	acked = append(acked, more...)
	refused = append(refused, formRefused)

	// Reads go on.
	for _, path := range []string{"/healthz", "/api/puzzles", "/api/puzzles?sort=clues&order=asc&limit=100", "/api/puzzles/1",
		"/puzzles", "/puzzles?sort=submitted", "/puzzles/1", "/api/puzzles/1/trace", "/"} {
		res, err := client.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s on a full database: status %d", path, res.StatusCode)
		}
	}

	// Nothing half-written: the refused puzzles are absent, the totals agree.
	checkStoredOnce(t, dbPath, acked, refused)

	// Space is back: the same server takes the refused puzzles.
	if _, err := db.SetMaxPageCount(ctx, orig); err != nil {
		t.Fatal(err)
	}
	for _, p := range refused {
		res, err := submit(ctx, client, s.url, p)
		if err != nil || res.status != http.StatusCreated {
			t.Fatalf("after raising the limit: %v, status %d, %s", err, res.status, res.body)
		}
	}
	checkStoredOnce(t, dbPath, append(acked, refused...), nil)
	if err := s.stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
}

// submitUntilFull submits new puzzles through the API until five are
// refused with 503 and the storage-full message; it returns those still
// acknowledged on the way (room in the last pages) and the refused.
func submitUntilFull(t *testing.T, client *http.Client, base string, src *puzzleSource) (acked, refused []string) {
	t.Helper()
	for i := 0; len(refused) < 5; i++ {
		if i == 5000 {
			t.Fatalf("5000 submissions and the database is not full (%d refused)", len(refused))
		}
		p := src.next()
		res, err := submit(context.Background(), client, base, p)
		if err != nil {
			t.Fatal(err)
		}
		switch res.status {
		case http.StatusCreated:
			acked = append(acked, p) // still room in the last pages
		case http.StatusServiceUnavailable:
			if !strings.Contains(res.body, `"error":"the archive cannot store puzzles right now (storage full); try again later"`) {
				t.Errorf("503 body %s: want the storage-full message", res.body)
			}
			refused = append(refused, p)
		default:
			t.Fatalf("submission on a full database: status %d, %s", res.status, res.body)
		}
	}
	return acked, refused
}

// postFormUntilFull posts new puzzles through the form, as a browser with
// its CSRF cookie, until one is refused with 503 and "storage full" on the
// page. A puzzle may still find room in a page the refused ones did not
// need (the background graders' writes move rows about too): it returns
// those the form still archived, and the refused one.
func postFormUntilFull(t *testing.T, base string, src *puzzleSource) (acked []string, refused string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if res, err := browser.Get(base + "/"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("home page on a full database: %v %v", res, err)
	}
	u, _ := url.Parse(base)
	var token string
	for _, c := range jar.Cookies(u) {
		if c.Name == "_csrf" {
			token = c.Value
		}
	}
	for i := 0; ; i++ {
		if i == 50 {
			t.Fatal("50 form posts and none refused on a full database")
		}
		formPuzzle := src.next()
		res, err := browser.PostForm(base+"/puzzles", url.Values{"puzzle": {formPuzzle}, "_csrf": {token}})
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusSeeOther {
			acked = append(acked, formPuzzle)
			continue
		}
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(page), "storage full") {
			t.Errorf("form post on a full database: status %d, page %.300s", res.StatusCode, page)
		}
		return acked, formPuzzle
	}
}

// checkStoredOnce checks that the database at dbPath holds each of want
// once, none of absent, and nothing else.
func checkStoredOnce(t *testing.T, dbPath string, want, absent []string) {
	t.Helper()
	got := inspect(t, dbPath)
	for _, p := range want {
		if got[p] != 1 {
			t.Errorf("acknowledged puzzle %s: %d submissions stored, want 1", p, got[p])
		}
	}
	for _, p := range absent {
		if _, ok := got[p]; ok {
			t.Errorf("refused puzzle %s is stored", p)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d rows, want %d", len(got), len(want))
	}
}
