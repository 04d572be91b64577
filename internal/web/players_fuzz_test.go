package web

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// fakePlayers is the Players of the fuzz tests: one player, whose session
// is any signed cookie, and attempts at the puzzle easy kept in a map; a
// finish is checked as the store checks it (account.Finish.Check and
// account.CheckSolved).
type fakePlayers struct {
	*fakeArchive
	mu       sync.Mutex
	attempts map[int64]account.Attempt
}

var fakePlayer = account.Player{ID: 1, Role: account.RolePlayer, Skill: 1}

func (f *fakePlayers) NewPlayer(context.Context, []byte, time.Time) (account.Player, error) {
	return fakePlayer, nil
}
func (f *fakePlayers) SessionPlayer(context.Context, []byte, time.Time) (account.Player, error) {
	return fakePlayer, nil
}
func (f *fakePlayers) TokenPlayer(context.Context, []byte) (account.Player, error) {
	return account.Player{}, account.ErrNoPlayer
}
func (f *fakePlayers) Signup(context.Context, int64, string, string, []byte, []byte, time.Time) (account.Player, error) {
	return fakePlayer, nil
}
func (f *fakePlayers) Credentials(context.Context, string) (account.Player, string, error) {
	return account.Player{}, "", account.ErrNoPlayer
}
func (f *fakePlayers) StartSession(context.Context, int64, []byte, []byte, time.Time) error {
	return nil
}
func (f *fakePlayers) EndSession(context.Context, []byte) error { return nil }
func (f *fakePlayers) LoginTry(context.Context, account.LoginAttempt, account.LoginLimits) (account.Throttled, error) {
	return account.ThrottleNone, nil
}
func (f *fakePlayers) LoginSucceeded(context.Context, account.LoginAttempt) error { return nil }
func (f *fakePlayers) Tokens(context.Context, int64) ([]account.Token, error)     { return nil, nil }
func (f *fakePlayers) RevokeToken(context.Context, int64, int64, moderation.Actor) error {
	return account.ErrNoToken
}
func (f *fakePlayers) StartAttempt(_ context.Context, player, puzzle int64) (account.Attempt, bool, error) {
	if puzzle != 1 {
		return account.Attempt{}, false, record.ErrNotFound
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id := int64(len(f.attempts) + 1)
	a := account.Attempt{ID: id, PlayerID: player, PuzzleID: puzzle, StartedAt: time.Now().Add(-time.Hour), Outcome: account.OutcomeOpen}
	f.attempts[id] = a
	return a, true, nil
}
func (f *fakePlayers) FinishAttempt(_ context.Context, player, id int64, fin account.Finish) (account.Attempt, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.attempts[id]
	if !ok || a.PlayerID != player {
		return a, record.ErrNotFound
	}
	if a.Outcome != account.OutcomeOpen {
		return a, account.ErrFinished
	}
	fin, err := fin.Check(time.Since(a.StartedAt))
	if err != nil {
		return a, err
	}
	if fin.Outcome == account.OutcomeSolved {
		if err := account.CheckSolved(easy, fin.Grid); err != nil {
			return a, err
		}
	}
	a.Outcome, a.Seconds, a.Hints, a.Checks, a.Mistakes = fin.Outcome, fin.ActiveSeconds, fin.Hints, fin.Checks, fin.Mistakes
	return a, nil // not stored: every fuzz input finds attempt 1 open
}
func (f *fakePlayers) Attempts(context.Context, int64, int64, int) ([]account.Attempt, error) {
	return nil, nil
}
func (f *fakePlayers) Summary(context.Context, int64, time.Time) (account.Summary, error) {
	return account.Summary{}, nil
}
func (f *fakePlayers) ExportPlayer(context.Context, int64) (account.Export, error) {
	return account.Export{Player: fakePlayer}, nil
}
func (f *fakePlayers) DeletePlayer(context.Context, int64, moderation.Actor) error { return nil }

// FuzzAttemptBodies sends arbitrary bodies to POST /api/attempts and
// POST /api/attempts/1: the answer is a 2xx or a 4xx with a JSON error,
// never a 5xx or a panic, and a finish accepted is within the limits.
func FuzzAttemptBodies(f *testing.F) {
	for _, seed := range []string{
		`{"puzzle_id": 1}`, `{"puzzle_id": 0}`, `{"puzzle_id": -1}`, `{"puzzle_id": 1e30}`, `{"puzzle_id": "1"}`,
		`{"outcome": "solved", "grid": "` + easySolution + `", "active_seconds": 61.5, "hints": 2, "checks": 1, "mistakes": 0, "techniques": ["X-Wing"]}`,
		`{"outcome": "gave_up", "active_seconds": 1e308}`, `{"outcome": "gave_up", "hints": -1}`,
		`{"outcome": "solved", "grid": "` + strings.Repeat("1", 81) + `"}`,
		`{"outcome": "gave_up", "techniques": ["", "a\nb"]}`, `{"outcome": "open"}`,
		`{}`, `[]`, `null`, `"x"`, "{\"outcome\": \"\xff\"}",
	} {
		f.Add(seed)
	}
	fp := &fakePlayers{fakeArchive: &fakeArchive{}, attempts: map[int64]account.Attempt{}}
	s := New(partsOf(fp), Config{Logger: quiet})
	cookie, _ := s.signer.NewSession()
	hdr := http.Header{"Cookie": {sessionCookie + "=" + cookie}}
	if rec := do(f, s, request{method: http.MethodPost, path: "/api/attempts", body: `{"puzzle_id": 1}`, header: hdr}); rec.Code != http.StatusCreated {
		f.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/api/attempts", "/api/attempts/1"} {
			rec := do(t, s, request{method: http.MethodPost, path: path, body: body, header: hdr})
			if rec.Code >= 500 {
				t.Fatalf("%s answered %d to %q: %s", path, rec.Code, body, rec.Body)
			}
			if rec.Code >= 400 {
				if msg := decode[apiErr](t, rec).Error; msg == "" {
					t.Fatalf("%s answered %d with no error message to %q", path, rec.Code, body)
				}
				continue
			}
			a := decode[attemptJSON](t, rec)
			if a.Seconds < 0 || a.Seconds > 3600 || a.Hints < 0 || a.Hints > account.MaxCount || a.Checks < 0 || a.Mistakes < 0 {
				t.Fatalf("%s accepted %q as %+v", path, body, a)
			}
		}
	})
}

// TestNeedRoles walks the player routes with no player, a player and a
// forged cookie: who may do what is what the route table declares.
func TestNeedRoles(t *testing.T) {
	fp := &fakePlayers{fakeArchive: &fakeArchive{}, attempts: map[int64]account.Attempt{}}
	s := New(partsOf(fp), Config{Logger: quiet})
	cookie, _ := s.signer.NewSession()
	forged := cookie[:len(cookie)-1] + "x"
	if strings.HasSuffix(cookie, "x") {
		forged = cookie[:len(cookie)-1] + "y"
	}
	for _, tc := range []struct {
		method, path string
		body         string
		none, player int // status without a player, with one
	}{
		{http.MethodGet, "/api/me", "", http.StatusUnauthorized, http.StatusOK},
		{http.MethodGet, "/api/me/attempts", "", http.StatusUnauthorized, http.StatusOK},
		{http.MethodGet, "/api/me/export", "", http.StatusUnauthorized, http.StatusOK},
		{http.MethodDelete, "/api/me", "", http.StatusUnauthorized, http.StatusNoContent},
		{http.MethodPost, "/api/attempts/1", `{"outcome": "gave_up"}`, http.StatusUnauthorized, http.StatusNotFound},
		{http.MethodGet, "/me", "", http.StatusOK, http.StatusOK},
		{http.MethodGet, "/signup", "", http.StatusOK, http.StatusOK},
		{http.MethodGet, "/login", "", http.StatusOK, http.StatusOK},
	} {
		for _, who := range []struct {
			name   string
			cookie string
			want   int
		}{{"none", "", tc.none}, {"forged", forged, tc.none}, {"player", cookie, tc.player}} {
			r := request{method: tc.method, path: tc.path, body: tc.body}
			if who.cookie != "" {
				r.header = http.Header{"Cookie": {sessionCookie + "=" + who.cookie}}
			}
			if rec := do(t, s, r); rec.Code != who.want {
				t.Errorf("%s %s as %s: %d, want %d", tc.method, tc.path, who.name, rec.Code, who.want)
			}
		}
	}
}

// TestSessionCookieFlags: the player cookie is HttpOnly and SameSite=Lax
// always, Secure with Config.SecureCookies (serve --secure-cookies).
func TestSessionCookieFlags(t *testing.T) {
	for _, secure := range []bool{false, true} {
		fp := &fakePlayers{fakeArchive: &fakeArchive{}, attempts: map[int64]account.Attempt{}}
		s := New(partsOf(fp), Config{Logger: quiet, SecureCookies: secure})
		rec := post(t, s, "/api/attempts", `{"puzzle_id": 1}`)
		if rec.Code != http.StatusCreated {
			t.Fatalf("start: %d %s", rec.Code, rec.Body)
		}
		var ck *http.Cookie
		for _, c := range rec.Result().Cookies() {
			if c.Name == sessionCookie {
				ck = c
			}
		}
		if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure != secure {
			t.Errorf("SecureCookies %v: cookie %+v", secure, ck)
		}
		if _, err := s.signer.Session(ck.Value); err != nil {
			t.Errorf("the cookie is not signed by the server: %v", err)
		}
	}
}
