package web

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// streamingPlayers is an archive of players whose export never ends and
// whose every API token is the account "ann".
type streamingPlayers struct{ fakePlayers }

func (a *streamingPlayers) Export(ctx context.Context, _ record.ListQuery, fn func(record.Puzzle) error) error {
	return endless(ctx, nil, fn)
}

func (a *streamingPlayers) TokenPlayer(context.Context, []byte) (account.Player, error) {
	return account.Player{ID: 2, Name: "ann", Role: account.RolePlayer}, nil
}

// openExport starts GET /api/export from the client at address from
// (X-Forwarded-For, through a trusted proxy), with the extra header lines,
// and returns the status once the headers are in; a 200's body is left
// unread (a stalled download) until the test ends.
func openExport(t *testing.T, addr, from string, extra ...string) (int, http.Header) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := "GET /api/export?format=json HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + from + "\r\n"
	for _, h := range extra {
		req += h + "\r\n"
	}
	if _, err := c.Write([]byte(req + "\r\n")); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header
}

// TestExportTurns: two slow anonymous downloads no longer lock every
// other export out. A client streams one export at a time (429 with
// Retry-After for a second); anonymous clients share maxAnonExports
// turns (503 with Retry-After past them); an account still gets one.
// Under ExportNeedsAccount an anonymous export is refused (401).
func TestExportTurns(t *testing.T) {
	arch := &streamingPlayers{fakePlayers{fakeArchive: &fakeArchive{}}}
	for _, needsAccount := range []bool{false, true} {
		addr, stop := startServer(t, New(partsOf(arch), exportsConfig(needsAccount)))
		if needsAccount {
			if status, _ := openExport(t, addr, "10.0.0.1"); status != http.StatusUnauthorized {
				t.Errorf("anonymous export under ExportNeedsAccount: %d, want 401", status)
			}
			if status, _ := openExport(t, addr, "10.0.0.1", "Authorization: Bearer t1"); status != http.StatusOK {
				t.Errorf("account's export under ExportNeedsAccount: %d, want 200", status)
			}
		} else {
			checkAnonymousTurns(t, addr)
		}
		stop()
	}
}

// checkAnonymousTurns runs TestExportTurns's anonymous half on the server
// at addr.
func checkAnonymousTurns(t *testing.T, addr string) {
	t.Helper()
	for _, from := range []string{"10.0.0.1", "10.0.0.2"} {
		if status, _ := openExport(t, addr, from); status != http.StatusOK {
			t.Fatalf("slow export from %s: %d", from, status)
		}
	}
	status, h := openExport(t, addr, "10.0.0.1")
	if status != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Errorf("second export of one client: %d, Retry-After %q; want 429 with one", status, h.Get("Retry-After"))
	}
	status, h = openExport(t, addr, "10.0.0.3")
	if status != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
		t.Errorf("third anonymous client: %d, Retry-After %q; want 503 with one", status, h.Get("Retry-After"))
	}
	if status, _ := openExport(t, addr, "10.0.0.3", "Authorization: Bearer t1"); status != http.StatusOK {
		t.Errorf("an account beside two slow anonymous exports: %d, want 200", status)
	}
	if status, _ := openExport(t, addr, "10.0.0.4", "Authorization: Bearer t2"); status != http.StatusTooManyRequests {
		t.Errorf("the same account's second export: %d, want 429", status)
	}
}
