package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/version"
)

// schemaArchive is a fakeArchive that tells a schema version.
type schemaArchive struct {
	*fakeArchive
	current, known int64
}

func (a *schemaArchive) Schema(context.Context) (int64, int64, error) { return a.current, a.known, nil }

func TestReadyz(t *testing.T) {
	for _, tc := range []struct {
		name    string
		archive Archive
		status  int
		body    string
	}{
		{"migrated", &schemaArchive{&fakeArchive{}, 20, 20}, http.StatusOK, "ready"},
		{"schema behind", &schemaArchive{&fakeArchive{}, 17, 20}, http.StatusServiceUnavailable, "database schema 17, this binary's is 20"},
		{"database down", &schemaArchive{&fakeArchive{pingErr: context.DeadlineExceeded}, 20, 20}, http.StatusServiceUnavailable, "database unavailable"},
		{"no schema to tell", &fakeArchive{}, http.StatusOK, "ready"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, New(partsOf(tc.archive), Config{}), request{method: http.MethodGet, path: "/readyz"})
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("GET /readyz = %d %q, want %d with %q", rec.Code, rec.Body, tc.status, tc.body)
			}
		})
	}
}

func TestHealthzVerboseBuild(t *testing.T) {
	v := version.Info{Version: "v1.2.3", Commit: "abc", Go: "go1.99"}
	rec := do(t, New(partsOf(&fakeArchive{}), Config{Version: v}), request{method: http.MethodGet, path: "/healthz?verbose"})
	var h struct{ Build version.Info }
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil || h.Build != v {
		t.Errorf("healthz?verbose = %s (%v), want build %+v", rec.Body, err, v)
	}
}

// TestRequestLogFields: a request's line has its id (the X-Request-Id it
// answered with, or a proxy's), query, user agent, player and duration in
// ms; its `request failed` line has the id and the client's address.
func TestRequestLogFields(t *testing.T) {
	var logs strings.Builder
	s := New(partsOf(&fakeArchive{}), Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	rec := do(t, s, request{method: http.MethodGet, path: "/api/puzzles?limit=3&sort=grade", remoteAddr: "192.0.2.7:1234",
		header: http.Header{"User-Agent": {"probe/1"}, "X-Request-Id": {"nginx-0123abcd"}}})
	if got := rec.Header().Get("X-Request-Id"); got != "nginx-0123abcd" {
		t.Errorf("X-Request-Id = %q, want the proxy's", got)
	}
	// A failing health check: its request line is DEBUG, its failure WARN.
	down := New(partsOf(&fakeArchive{pingErr: context.DeadlineExceeded}), Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	do(t, down, request{method: http.MethodGet, path: "/healthz", remoteAddr: "192.0.2.7:1234", header: http.Header{"X-Request-Id": {"nginx-0123abcd"}}})
	lines := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		lines[m["msg"].(string)] = m
	}
	req := lines["request"]
	for k, want := range map[string]any{"id": "nginx-0123abcd", "query": "limit=3&sort=grade", "user_agent": "probe/1", "player": 0.0, "remote_ip": "192.0.2.7"} {
		if req[k] != want {
			t.Errorf("request line %s = %v, want %v (%v)", k, req[k], want, req)
		}
	}
	if _, ok := req["duration_ms"].(float64); !ok {
		t.Errorf("request line has no duration_ms: %v", req)
	}
	if f := lines["request failed"]; f == nil || f["id"] != "nginx-0123abcd" || f["remote_ip"] != "192.0.2.7" {
		t.Errorf("request failed line = %v, want the id and remote_ip", f)
	}
}

func TestRequestIDRefusesOddIDs(t *testing.T) {
	s := New(partsOf(&fakeArchive{}), Config{})
	for _, id := range []string{strings.Repeat("a", 65), "two words", "a\"b"} {
		rec := do(t, s, request{method: http.MethodGet, path: "/healthz", header: http.Header{"X-Request-Id": {id}}})
		if got := rec.Header().Get("X-Request-Id"); got == id || got == "" {
			t.Errorf("X-Request-Id %q answered %q, want a new id", id, got)
		}
	}
}

// TestQuietRequests: health checks and 429s are logged at DEBUG only.
func TestQuietRequests(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var logs strings.Builder
		s := New(partsOf(&fakeArchive{}), Config{RateLimit: 1, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: level}))})
		do(t, s, request{method: http.MethodGet, path: "/healthz"})
		do(t, s, request{method: http.MethodGet, path: "/readyz"})
		limited := 0
		for range 10 {
			if do(t, s, request{method: http.MethodPost, path: "/api/puzzles", body: puzzleBody(conflict), remoteAddr: "192.0.2.9:4444"}).Code == http.StatusTooManyRequests {
				limited++
			}
		}
		got := logs.String()
		quiet := strings.Count(got, "path=/healthz") + strings.Count(got, "path=/readyz") + strings.Count(got, "status=429")
		want := 0
		if level == slog.LevelDebug {
			want = 2 + limited
		}
		if limited == 0 || quiet != want {
			t.Errorf("at %v: %d quiet lines logged, want %d (%d limited):\n%s", level, quiet, want, limited, got)
		}
	}
}

func TestSignupsClosed(t *testing.T) {
	players := &fakePlayers{fakeArchive: &fakeArchive{}, attempts: map[int64]account.Attempt{}}
	s := New(partsOf(players), Config{ClosedSignups: true})
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		rec := do(t, s, request{method: method, path: "/signup", body: "name=someone&password=long+enough+password", contentType: "application/x-www-form-urlencoded"})
		if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "Sign-up is closed") {
			t.Errorf("%s /signup with sign-up closed = %d %.200q, want 403 saying so", method, rec.Code, rec.Body)
		}
	}
	if rec := do(t, New(partsOf(players), Config{}), request{method: http.MethodGet, path: "/signup"}); rec.Code != http.StatusOK {
		t.Errorf("GET /signup with sign-up open = %d", rec.Code)
	}
}
