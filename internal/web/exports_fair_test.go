package web

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// tokenPlayers is an archive of endless exports whose API tokens are the
// players of its map, by token.
type tokenPlayers struct {
	streamingPlayers
	byToken map[string]account.Player
}

func (a *tokenPlayers) TokenPlayer(_ context.Context, hash []byte) (account.Player, error) {
	for tok, p := range a.byToken {
		if string(account.HashToken(tok)) == string(hash) {
			return p, nil
		}
	}
	return account.Player{}, account.ErrNoPlayer
}

// serveExports serves arch with exportsConfig(false) until the test ends,
// and returns its address.
func serveExports(t *testing.T, arch Archive) string {
	t.Helper()
	addr, stop := startServer(t, New(partsOf(arch), exportsConfig(false)))
	t.Cleanup(stop)
	return addr
}

// exportsConfig is the export tests' server: behind a trusted proxy (so
// that each request says its address in X-Forwarded-For), with a short
// shutdown, exports for accounts only when needsAccount.
func exportsConfig(needsAccount bool) Config {
	return Config{Logger: slog.New(slog.DiscardHandler), NoDaily: true, ExportNeedsAccount: needsAccount, ShutdownTimeout: 100 * time.Millisecond,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
}

// startServer serves s on a port of its own and returns its address and
// stop, which shuts s down and waits for Serve to return: the test says
// when (at its end, or before it starts another server).
func startServer(t *testing.T, s *Server) (addr string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	return ln.Addr().String(), func() { cancel(); <-served }
}

// TestExportTurnsFair replays issue 45's case: two slow anonymous
// downloads, then accounts signed up a moment ago from one address. The
// new accounts wait like anonymous clients, an older account gets a
// turn, a second account from its address does not, and the last turn is
// an admin's. Every refusal says why, with Retry-After: 10.
func TestExportTurnsFair(t *testing.T) {
	now := time.Now()
	old := now.Add(-2 * newAccountAge)
	arch := &tokenPlayers{streamingPlayers: streamingPlayers{fakePlayers{fakeArchive: &fakeArchive{}}}, byToken: map[string]account.Player{
		"new1":  {ID: 11, Name: "new1", Role: account.RolePlayer, CreatedAt: now},
		"new2":  {ID: 12, Name: "new2", Role: account.RolePlayer, CreatedAt: now},
		"old1":  {ID: 21, Name: "old1", Role: account.RolePlayer, CreatedAt: old},
		"old2":  {ID: 22, Name: "old2", Role: account.RolePlayer, CreatedAt: old},
		"old3":  {ID: 23, Name: "old3", Role: account.RolePlayer, CreatedAt: old},
		"admin": {ID: 31, Name: "root", Role: account.RoleAdmin, CreatedAt: now},
	}}
	addr := serveExports(t, arch)
	steps := []struct {
		from, token string
		want        int
	}{
		{"10.0.0.1", "", http.StatusOK},
		{"10.0.0.2", "", http.StatusOK},
		{"10.0.0.5", "new1", http.StatusServiceUnavailable}, // new: the anonymous turns are taken
		{"10.0.0.5", "new2", http.StatusServiceUnavailable},
		{"10.0.0.5", "old1", http.StatusOK},
		{"10.0.0.5", "old2", http.StatusTooManyRequests},    // one per address
		{"10.0.0.6", "old3", http.StatusServiceUnavailable}, // the last turn is the staff's
		{"10.0.0.5", "admin", http.StatusOK},                // by account alone, on the kept turn
	}
	for _, st := range steps {
		var extra []string
		if st.token != "" {
			extra = append(extra, "Authorization: Bearer "+st.token)
		}
		status, h := openExport(t, addr, st.from, extra...)
		if status != st.want {
			t.Errorf("export of %q from %s: %d, want %d", st.token, st.from, status, st.want)
		}
		if status != http.StatusOK && h.Get("Retry-After") != "10" {
			t.Errorf("export of %q from %s: Retry-After %q, want 10", st.token, st.from, h.Get("Retry-After"))
		}
	}
}

// TestExportTurnsIPv6: an IPv6 client is one client for its whole /64,
// for the export turns as for every limit.
func TestExportTurnsIPv6(t *testing.T) {
	addr := serveExports(t, &streamingPlayers{fakePlayers{fakeArchive: &fakeArchive{}}})
	if status, _ := openExport(t, addr, "2001:db8:0:1::1"); status != http.StatusOK {
		t.Fatalf("first IPv6 export: %d", status)
	}
	if status, _ := openExport(t, addr, "2001:db8:0:1:ffff::2"); status != http.StatusTooManyRequests {
		t.Errorf("second export from the same /64: %d, want 429", status)
	}
	if status, _ := openExport(t, addr, "2001:db8:0:2::1"); status != http.StatusOK {
		t.Errorf("export from another /64: %d, want 200", status)
	}
}

// TestRateLimitIPv6: the write rate limit counts an IPv6 client by its
// /64, as the login throttle does: a burst spent from one address of it is
// spent for all.
func TestRateLimitIPv6(t *testing.T) {
	s, _ := newTestServer(t, Config{RateLimit: 1}) // burst 3
	for i := range 3 {
		if rec := postSolveFrom(t, s, fmt.Sprintf("[2001:db8:0:1::%d]:1234", i+1), ""); rec.Code != http.StatusOK {
			t.Fatalf("POST %d: status %d", i+1, rec.Code)
		}
	}
	if rec := postSolveFrom(t, s, "[2001:db8:0:1:ab::9]:1234", ""); rec.Code != http.StatusTooManyRequests {
		t.Errorf("fourth POST from the same /64: %d, want 429", rec.Code)
	}
	if rec := postSolveFrom(t, s, "[2001:db8:0:2::1]:1234", ""); rec.Code != http.StatusOK {
		t.Errorf("POST from another /64: %d, want 200", rec.Code)
	}
}

// TestExportRefusalSays: each refusal names the limit that refused it.
func TestExportRefusalSays(t *testing.T) {
	tt := newExportTurns()
	tt.add(exportClient{keys: []string{"addr:a"}, anon: true}, 1)
	tt.add(exportClient{keys: []string{"addr:b"}, anon: true}, 1)
	if _, why := tt.refusal(exportClient{keys: []string{"player:1", "addr:c"}, anon: true}); !strings.Contains(why, "younger than 24 hours") {
		t.Errorf("a new account's refusal: %q", why)
	}
	if _, why := tt.refusal(exportClient{keys: []string{"addr:a"}, anon: true}); !strings.Contains(why, "per address") {
		t.Errorf("a second export of one address: %q", why)
	}
	tt.add(exportClient{keys: []string{"player:2", "addr:d"}}, 1)
	if _, why := tt.refusal(exportClient{keys: []string{"player:3", "addr:e"}}); !strings.Contains(why, "kept for moderators") {
		t.Errorf("a player past the players' turns: %q", why)
	}
	if status, _ := tt.refusal(exportClient{keys: []string{"player:4"}, staff: true}); status != 0 {
		t.Errorf("an admin on the kept turn: refused %d", status)
	}
}
