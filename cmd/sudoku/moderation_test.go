package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// The archive serve and import use moderates: without these the
// moderation routes would not be served and imports would not reject
// hidden puzzles' lines.
var (
	_ web.Moderation = (*store.DB)(nil)
	_ bulk.Moderated = (*store.DB)(nil)
)

// Two ways of writing Norvig's first easy puzzle (playEasy): its first
// two rows swapped.
const playEasySwapped = "9..3.5..1..3.2.6....18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

// staff makes, with the command line, an admin and a moderator of the
// archive at db (the first admin is made this way) and returns their API
// tokens.
func staff(t *testing.T, db string) (admin, mod string) {
	t.Helper()
	user := func(stdin string, args ...string) string {
		out, _, err := runCmd(t, stdin, append([]string{"user", "--db", db}, args...)...)
		if err != nil {
			t.Fatalf("user %v: %v", args, err)
		}
		return strings.TrimSpace(out)
	}
	user("long enough password\n", "--create", "add", "boss", "--role", "admin") // the archive's first account
	user("long enough password\n", "add", "mia")
	user("", "role", "mia", "moderator")
	return user("", "token", "boss"), user("", "token", "mia")
}

// caller sends API requests as one identity: a token, or a browser's
// cookies (client).
type caller struct {
	c     *client
	token string
}

func (a caller) call(method, path, body string) (int, string) {
	a.c.t.Helper()
	var h []string
	if a.token != "" {
		h = []string{"Authorization", "Bearer " + a.token}
	}
	status, b, _ := a.c.do(method, path, body, h...)
	return status, b
}

// want checks a call's status and that its body holds each of has.
func (a caller) want(method, path, body string, status int, has ...string) string {
	a.c.t.Helper()
	got, b := a.call(method, path, body)
	if got != status {
		a.c.t.Errorf("%s %s %s: %d, want %d; %s", method, path, body, got, status, b)
	}
	for _, h := range has {
		if !strings.Contains(b, h) {
			a.c.t.Errorf("%s %s: body %s lacks %s", method, path, b, h)
		}
	}
	return b
}

// TestModerationAPI walks the moderation API on both databases: who may
// call what, a flag, a hide that takes the puzzle out of every read and
// refuses its givens, a restore, a dismissal, a delete, the queue and the
// audit trail (also through `sudoku audit`).
func TestModerationAPI(t *testing.T) { eachArchive(t, testModerationAPI) }

func testModerationAPI(t *testing.T, db string) {
	adminTok, modTok := staff(t, db)
	srv := startServe(t, db, "--rate-limit", "0", "--daily=false")
	anon := caller{c: newClient(t, srv.url)}
	player := caller{c: newClient(t, srv.url)}
	admin, mod := caller{newClient(t, srv.url), adminTok}, caller{newClient(t, srv.url), modTok}
	var pz, other puzzleJSON
	anon.c.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasy), http.StatusCreated, &pz)
	anon.c.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasySwapped), http.StatusCreated, &other)
	player.want(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated)
	p := func(id int64, tail string) string { return fmt.Sprintf("/api/puzzles/%d%s", id, tail) }

	// Who may do what.
	anon.want(http.MethodPost, p(pz.ID, "/flag"), `{"reason": "wrong"}`, http.StatusUnauthorized)
	for _, c := range []struct{ method, path, body string }{
		{http.MethodPost, p(pz.ID, "/hide"), `{"reason": "x"}`}, {http.MethodPost, p(pz.ID, "/restore"), `{}`},
		{http.MethodPost, p(pz.ID, "/dismiss"), `{}`}, {http.MethodDelete, p(pz.ID, ""), ""},
		{http.MethodGet, "/api/flags", ""}, {http.MethodGet, "/api/audit", ""},
	} {
		anon.want(c.method, c.path, c.body, http.StatusUnauthorized)
		player.want(c.method, c.path, c.body, http.StatusForbidden)
	}
	mod.want(http.MethodDelete, p(pz.ID, ""), "", http.StatusForbidden)

	// A flag, once; bad bodies say what is wrong.
	player.want(http.MethodPost, p(pz.ID, "/flag"), `{"reason": "wrong", "text": "two 5s in row 1"}`, http.StatusCreated, `"status":"open"`)
	player.want(http.MethodPost, p(pz.ID, "/flag"), `{"reason": "other"}`, http.StatusConflict, "flagged this puzzle already")
	player.want(http.MethodPost, p(other.ID, "/flag"), `{"reason": "bad"}`, http.StatusBadRequest, "unknown reason")
	player.want(http.MethodPost, p(other.ID, "/flag"), `{"text": "x"}`, http.StatusBadRequest, "reason")
	player.want(http.MethodPost, p(other.ID, "/flag"), fmt.Sprintf(`{"reason": "other", "text": %q}`, strings.Repeat("x", 1001)), http.StatusBadRequest, "at most 1000")
	player.want(http.MethodPost, p(999, "/flag"), `{"reason": "other"}`, http.StatusNotFound)
	mod.want(http.MethodGet, "/api/flags", "", http.StatusOK, `"text":"two 5s in row 1"`, fmt.Sprintf(`"id":%d`, pz.ID))

	// Hide: gone for players, there for moderators; its givens refused.
	mod.want(http.MethodPost, p(pz.ID, "/hide"), `{}`, http.StatusBadRequest, "reason")
	mod.want(http.MethodPost, p(pz.ID, "/hide"), `{"reason": "a copy of a book's puzzle"}`, http.StatusOK, `"hidden":true`, `"by_name":"mia"`)
	mod.want(http.MethodPost, p(pz.ID, "/hide"), `{"reason": "again"}`, http.StatusConflict)
	checkHidden(t, anon, player, mod, pz)
	mod.want(http.MethodGet, "/api/flags", "", http.StatusOK, `"flagged":[]`)

	mod.want(http.MethodPost, p(pz.ID, "/restore"), "", http.StatusOK, `"hidden":false`)
	mod.want(http.MethodPost, p(pz.ID, "/restore"), "", http.StatusConflict, "not hidden")
	player.want(http.MethodGet, p(pz.ID, ""), "", http.StatusOK)
	anon.want(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasy), http.StatusOK, `"duplicate":true`)

	// Dismiss, then delete (admins only).
	player.want(http.MethodPost, p(other.ID, "/flag"), `{"reason": "duplicate"}`, http.StatusCreated)
	mod.want(http.MethodPost, p(other.ID, "/dismiss"), `{"reason": "a puzzle written another way is welcome"}`, http.StatusOK, `"dismissed":1`)
	mod.want(http.MethodPost, p(other.ID, "/dismiss"), "", http.StatusConflict)
	admin.want(http.MethodDelete, p(other.ID, ""), "", http.StatusNoContent)
	admin.want(http.MethodDelete, p(other.ID, ""), "", http.StatusNotFound)
	mod.want(http.MethodGet, p(other.ID, ""), "", http.StatusNotFound)

	checkAudit(t, mod, srv, db, other.ID)
}

// checkAudit reads the audit trail of the walk above through the API,
// paged, and through `sudoku audit` once the server is stopped.
func checkAudit(t *testing.T, mod caller, srv *server, db string, deleted int64) {
	t.Helper()
	var trail struct {
		Entries []struct {
			Action string `json:"action"`
			Actor  struct {
				Name string `json:"name"`
				Via  string `json:"via"`
			} `json:"actor"`
		} `json:"entries"`
		NextCursor *string `json:"next_cursor"`
	}
	body := mod.want(http.MethodGet, "/api/audit?limit=3", "", http.StatusOK)
	if err := json.Unmarshal([]byte(body), &trail); err != nil || len(trail.Entries) != 3 || trail.NextCursor == nil ||
		trail.Entries[0].Action != "delete" || trail.Entries[0].Actor.Name != "boss" || trail.Entries[0].Actor.Via != "api" {
		t.Fatalf("audit page: %s (%v)", body, err)
	}
	mod.want(http.MethodGet, "/api/audit?cursor="+url.QueryEscape(*trail.NextCursor), "", http.StatusOK, `"action":"hide"`)
	mod.want(http.MethodGet, "/api/audit?limit=0", "", http.StatusBadRequest, "limit")
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "audit", "--db", db)
	for _, want := range []string{"delete", "puzzle " + fmt.Sprint(deleted), "dismiss", "restore", "hide", "a copy of a book's puzzle",
		"role", "player mia", "player -> moderator", "token", "user_add", "command line"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("sudoku audit lacks %q: %v\n%s", want, err, out)
		}
	}
	if _, _, err := runCmd(t, "", "audit", "--db", db, "--limit", "0"); exitCode(err) != 2 {
		t.Errorf("audit --limit 0: %v, want exit 2", err)
	}
}

// checkHidden checks that the hidden puzzle pz is in no read of players
// and anonymous visitors, that moderators see it hidden, and that its
// givens, written any way, are refused with the reason.
func checkHidden(t *testing.T, anon, player, mod caller, pz puzzleJSON) {
	t.Helper()
	path := fmt.Sprintf("/api/puzzles/%d", pz.ID)
	for _, c := range []caller{anon, player} {
		c.want(http.MethodGet, path, "", http.StatusNotFound)
		c.want(http.MethodGet, path+"/trace", "", http.StatusNotFound)
		if _, b := c.call(http.MethodGet, "/api/puzzles?limit=100", ""); strings.Contains(b, pz.Puzzle) || !strings.Contains(b, `"total":1`) {
			t.Errorf("the listing shows the hidden puzzle or miscounts: %s", b)
		}
		if _, b := c.call(http.MethodGet, "/api/export?format=txt", ""); strings.Contains(b, pz.Puzzle) {
			t.Errorf("the export has the hidden puzzle")
		}
		if s, b := c.call(http.MethodGet, "/puzzles/"+fmt.Sprint(pz.ID), ""); s != http.StatusNotFound {
			t.Errorf("the puzzle page: %d %.200s", s, b)
		}
	}
	mod.want(http.MethodGet, path, "", http.StatusOK, `"hidden":true`, `"reason":"a copy of a book's puzzle"`)
	// Its share links, written any way (digits 1 and 2 swapped: not archived).
	relabelled := strings.NewReplacer("1", "2", "2", "1").Replace(playEasy)
	for _, g := range []string{playEasy, relabelled} {
		player.want(http.MethodGet, "/p/"+g, "", http.StatusNotFound)
	}
	player.want(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusNotFound)
	for _, g := range []string{playEasy, playEasySwapped[:0] + strings.ReplaceAll(playEasy, ".", "0")} {
		anon.want(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, g), http.StatusConflict, "a copy of a book's puzzle")
	}
	form := url.Values{"puzzle": {playEasy}}
	if s, b, _ := anon.c.form("/", "/puzzles", form); s != http.StatusConflict || !strings.Contains(b, "a copy of a book&#39;s puzzle") {
		t.Errorf("the submit form with hidden givens: %d %.300s", s, b)
	}
}

// TestClosedWrites runs serve --anonymous-writes=false: submitting (API
// and form), importing (batch and upload) and generating need an account
// or a token, 401 with the reason otherwise (the form pages say so
// before); playing stays open.
func TestClosedWrites(t *testing.T) {
	db := sqliteArchive(t)
	adminTok, _ := staff(t, db)
	srv := startServe(t, db, "--rate-limit", "0", "--daily=false", "--anonymous-writes=false")
	anon := caller{c: newClient(t, srv.url)}
	admin := caller{newClient(t, srv.url), adminTok}
	body := fmt.Sprintf(`{"puzzle": %q}`, playEasy)
	anon.want(http.MethodPost, "/api/puzzles", body, http.StatusUnauthorized, "accounts only")
	var pz puzzleJSON
	admin.c.json(http.MethodPost, "/api/puzzles", body, http.StatusUnauthorized, nil) // the cookie-less client without its token
	status, b := admin.call(http.MethodPost, "/api/puzzles", body)
	if status != http.StatusCreated || json.Unmarshal([]byte(b), &pz) != nil {
		t.Fatalf("submit with a token: %d %s", status, b)
	}
	// Playing stays open: the anonymous visitor becomes a player, and a
	// player without an account still cannot submit.
	anon.want(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated)
	anon.want(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", pz.ID), "", http.StatusOK)
	anon.want(http.MethodPost, "/api/puzzles", body, http.StatusUnauthorized, "accounts only")
	for _, c := range []struct{ path, ct, body string }{
		{"/api/puzzles/batch", "text/plain", playEasySwapped + "\n"},
		{"/api/generate", "application/json", `{"band": "easy"}`},
	} {
		if s, b, _ := anon.c.do(http.MethodPost, c.path, c.body, "Content-Type", c.ct); s != http.StatusUnauthorized || !strings.Contains(b, "accounts only") {
			t.Errorf("POST %s anonymously: %d %s", c.path, s, b)
		}
	}
	for _, page := range []string{"/", "/generate"} {
		if s, b, _ := anon.c.do(http.MethodGet, page, ""); s != http.StatusOK || !strings.Contains(b, `data-testid="closed-writes"`) {
			t.Errorf("GET %s does not say writes need an account: %d", page, s)
		}
	}
	if s, b, _ := anon.c.form("/", "/puzzles", url.Values{"puzzle": {playEasySwapped}}); s != http.StatusUnauthorized || !strings.Contains(b, "accounts only") {
		t.Errorf("the submit form anonymously: %d %.300s", s, b)
	}
	// A signed-up account writes with its session; its pages say nothing.
	user := caller{c: newClient(t, srv.url)}
	if s, _, _ := user.c.form("/signup", "/signup", url.Values{"name": {"writer"}, "password": {"long enough password"}}); s != http.StatusSeeOther {
		t.Fatalf("sign up: %d", s)
	}
	if _, b, _ := user.c.do(http.MethodGet, "/", ""); strings.Contains(b, `data-testid="closed-writes"`) {
		t.Error("the home page tells an account that writes need an account")
	}
	user.want(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasySwapped), http.StatusCreated)
	// Open writes (the default) keep today's behaviour.
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	open := startServe(t, db, "--rate-limit", "0", "--daily=false")
	caller{c: newClient(t, open.url)}.want(http.MethodPost, "/api/puzzles", body, http.StatusOK, `"duplicate":true`)
}

// TestAttemptsImportHidden: `sudoku attempts import` rejects the lines of
// a hidden puzzle, written any of three ways, with the moderator's reason
// (instead of failing the whole import).
func TestAttemptsImportHidden(t *testing.T) {
	dir := t.TempDir()
	db := sqliteArchive(t)
	puzzles := filepath.Join(dir, "puzzles.txt")
	if err := os.WriteFile(puzzles, []byte(playEasy+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", "import", "--db", db, puzzles); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.HidePuzzle(context.Background(), 1, moderation.CLI(), "not ours to publish"); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	relabelled := strings.NewReplacer("1", "2", "2", "1").Replace(playEasy)
	plays := filepath.Join(dir, "plays.jsonl")
	var lines []string
	for _, p := range []string{playEasy, relabelled, playEasySwapped} {
		lines = append(lines, fmt.Sprintf(`{"player": "ann", "puzzle": %q, "seconds": 60, "outcome": "solved", "hints": 0, "at": "2026-01-01T10:00:00Z"}`, p))
	}
	if err := os.WriteFile(plays, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "", "attempts", "import", "--db", db, plays)
	if err != nil || !strings.Contains(out, "imported 0 attempts") || !strings.Contains(out, "rejected 3") ||
		strings.Count(errOut, "not ours to publish") != 3 {
		t.Errorf("attempts import: %v\nstdout %s\nstderr %s", err, out, errOut)
	}
}
