package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// fakeModeration is fakePlayers with the moderation calls: its one player
// has the role role, puzzle 1 exists and is visible, and the calls keep
// nothing.
type fakeModeration struct {
	*fakePlayers
	role account.Role
}

func newFakeModeration(role account.Role) *fakeModeration {
	return &fakeModeration{&fakePlayers{fakeArchive: &fakeArchive{}, attempts: map[int64]account.Attempt{}}, role}
}

func (f *fakeModeration) player() account.Player {
	p := fakePlayer
	p.Name, p.Role = "mod", f.role
	return p
}
func (f *fakeModeration) NewPlayer(context.Context, []byte, time.Time) (account.Player, error) {
	return f.player(), nil
}
func (f *fakeModeration) SessionPlayer(context.Context, []byte, time.Time) (account.Player, error) {
	return f.player(), nil
}
func (f *fakeModeration) Flag(_ context.Context, id, player int64, r moderation.Reason, text string) (moderation.Flag, error) {
	if id != 1 {
		return moderation.Flag{}, record.ErrNotFound
	}
	return moderation.Flag{ID: 1, PuzzleID: id, PlayerID: player, Reason: r, Text: text, Status: moderation.StatusOpen}, nil
}
func (f *fakeModeration) OpenFlags(context.Context, int64, int) ([]moderation.Flagged, error) {
	return nil, nil
}
func (f *fakeModeration) Dismiss(context.Context, int64, moderation.Actor, string) (int, error) {
	return 0, moderation.ErrNoOpenFlags
}
func (f *fakeModeration) HidePuzzle(_ context.Context, id int64, by moderation.Actor, reason string) (moderation.Hidden, error) {
	if id != 1 {
		return moderation.Hidden{}, record.ErrNotFound
	}
	return moderation.Hidden{PuzzleID: id, By: by.ID, ByName: by.Name, Reason: reason}, nil
}
func (f *fakeModeration) RestorePuzzle(context.Context, int64, moderation.Actor, string) error {
	return moderation.ErrNotHidden
}
func (f *fakeModeration) DeletePuzzle(context.Context, int64, moderation.Actor, string) error {
	return nil
}
func (f *fakeModeration) ModPuzzle(context.Context, int64) (record.Puzzle, *moderation.Hidden, error) {
	return record.Puzzle{}, nil, record.ErrNotFound
}
func (f *fakeModeration) Audit(context.Context, int64, int) ([]moderation.Entry, error) {
	return nil, nil
}
func (f *fakeModeration) HiddenClasses(context.Context) (moderation.HiddenSet, error) {
	return nil, nil
}

// FuzzModerationBodies sends arbitrary bodies to POST /api/puzzles/1/flag
// and /hide as a moderator: the answer is a 2xx or a 4xx with a JSON
// error, never a 5xx or a panic, and what is accepted keeps the rules (a
// known reason, a text of at most 1000 characters; a hide's reason given,
// trimmed, at most 500).
func FuzzModerationBodies(f *testing.F) {
	for _, seed := range []string{
		`{"reason": "wrong", "text": "two 5s in row 1"}`, `{"reason": "offensive"}`, `{"reason": "Wrong"}`,
		`{"reason": ""}`, `{"reason": "  "}`, `{"reason": "other", "text": "` + strings.Repeat("é", 1001) + `"}`,
		`{"reason": "spam", "extra": 1}`, `{"reason": 5}`, `{"text": "x"}`, `{"reason": "copyright", "text": "a\u0000b"}`,
		`{}`, `[]`, `null`, `"x"`, "{\"reason\": \"\xff\"}", "",
	} {
		f.Add(seed)
	}
	s := New(partsOf(newFakeModeration(account.RoleModerator)), Config{Logger: quiet})
	cookie, _ := s.signer.NewSession()
	hdr := http.Header{"Cookie": {sessionCookie + "=" + cookie}}
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/api/puzzles/1/flag", "/api/puzzles/1/hide"} {
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
			if strings.HasSuffix(path, "/flag") {
				fl := decode[moderation.Flag](t, rec)
				if _, err := moderation.ParseReason(string(fl.Reason)); err != nil || utf8.RuneCountInString(fl.Text) > moderation.MaxFlagText {
					t.Fatalf("flag accepted %q as %+v", body, fl)
				}
				continue
			}
			h := decode[moderation.Hidden](t, rec)
			if h.Reason == "" || h.Reason != strings.TrimSpace(h.Reason) || utf8.RuneCountInString(h.Reason) > moderation.MaxReason {
				t.Fatalf("hide accepted %q as %+v", body, h)
			}
		}
	})
}

// TestModerationRoles walks the moderation routes as nobody, a player, a
// moderator and an admin: 401 without a player, 403 below the role the
// route table declares.
func TestModerationRoles(t *testing.T) {
	for _, tc := range []struct {
		method, path, body string
		player, mod, admin int // status for each role
	}{
		{http.MethodPost, "/api/puzzles/1/flag", `{"reason": "wrong"}`, http.StatusCreated, http.StatusCreated, http.StatusCreated},
		{http.MethodPost, "/api/puzzles/1/hide", `{"reason": "x"}`, http.StatusForbidden, http.StatusOK, http.StatusOK},
		{http.MethodPost, "/api/puzzles/1/restore", "", http.StatusForbidden, http.StatusConflict, http.StatusConflict},
		{http.MethodPost, "/api/puzzles/1/dismiss", "", http.StatusForbidden, http.StatusConflict, http.StatusConflict},
		{http.MethodDelete, "/api/puzzles/1", "", http.StatusForbidden, http.StatusForbidden, http.StatusNoContent},
		{http.MethodGet, "/api/flags", "", http.StatusForbidden, http.StatusOK, http.StatusOK},
		{http.MethodGet, "/api/audit", "", http.StatusForbidden, http.StatusOK, http.StatusOK},
	} {
		none := do(t, New(partsOf(newFakeModeration(account.RolePlayer)), Config{Logger: quiet}), request{method: tc.method, path: tc.path, body: tc.body})
		if none.Code != http.StatusUnauthorized {
			t.Errorf("%s %s without a player: %d, want 401", tc.method, tc.path, none.Code)
		}
		for role, want := range map[account.Role]int{account.RolePlayer: tc.player, account.RoleModerator: tc.mod, account.RoleAdmin: tc.admin} {
			s := New(partsOf(newFakeModeration(role)), Config{Logger: quiet})
			cookie, _ := s.signer.NewSession()
			r := request{method: tc.method, path: tc.path, body: tc.body, header: http.Header{"Cookie": {sessionCookie + "=" + cookie}}}
			if rec := do(t, s, r); rec.Code != want {
				t.Errorf("%s %s as %s: %d, want %d; %s", tc.method, tc.path, role, rec.Code, want, rec.Body)
			}
		}
	}
}

// TestClosedWritesUpload: under Config.ClosedWrites an upload with a valid
// form token but no account is refused (401, the reason on the page), and
// nothing is archived; the same upload passes when writes are open.
func TestClosedWritesUpload(t *testing.T) {
	for _, closed := range []bool{true, false} {
		s, a := newBulkServer(t, Config{ClosedWrites: closed})
		cookie, token := csrfPair(t, s)
		rec := serve(s, upload{file: []byte(batchEasy + "\n"), token: token, cookie: cookie}.request(t))
		switch {
		case closed && (rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "accounts only") || a.calls != 0):
			t.Errorf("closed: %d, %d archive calls; %.300s", rec.Code, a.calls, rec.Body)
		case !closed && (rec.Code != http.StatusOK || a.calls != 1):
			t.Errorf("open: %d, %d archive calls", rec.Code, a.calls)
		}
	}
}
