package web

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
)

// Exports (GET /api/export) stream for as long as their clients read, at
// any pace: two slow anonymous downloads used to take both turns there
// were and lock every other export out (issue 38). Turns are now shared:
// at most maxExports stream at once; one client (an account or token by
// its player, anyone else by address) streams one at a time; and exports
// without an account take at most maxAnonExports turns together, so that
// accounts always find one. `serve --export-requires-account` closes
// exports to anonymous clients altogether.
const (
	maxExports     = 4
	maxAnonExports = 2
	// exportRetry is the Retry-After of an export refused a turn.
	exportRetry = 10 * time.Second
)

// msgExportAccount says why an anonymous export is refused under
// Config.ExportNeedsAccount.
const msgExportAccount = "exports are open to accounts only here: log in (or sign up) at /login, or send Authorization: Bearer TOKEN (sudoku user token)"

// exportTurns hands out the turns at streaming an export.
type exportTurns struct {
	all      *archive.Gate
	mu       sync.Mutex
	byClient map[string]int // exports streaming, by client
	anon     int            // of which without an account
}

func newExportTurns() *exportTurns {
	return &exportTurns{all: archive.NewGate(maxExports, time.Second), byClient: make(map[string]int)}
}

// enterExport takes a turn for the request c, or answers why not: 401 for an
// anonymous client where exports need an account, 429 for a client
// already streaming one, 503 when the turns it may take are all taken.
// The caller calls leave once done.
func (s *Server) enterExport(c echo.Context) (leave func(), err error) {
	t := s.exports
	account := hasAccount(c)
	if !account && s.cfg.ExportNeedsAccount {
		return nil, echo.NewHTTPError(http.StatusUnauthorized, msgExportAccount)
	}
	key := "addr:" + c.RealIP()
	if p, ok := playerOf(c); ok && account {
		key = "player:" + strconv.FormatInt(p.ID, 10)
	}
	retry := strconv.Itoa(int(exportRetry / time.Second))
	t.mu.Lock()
	switch {
	case t.byClient[key] > 0:
		t.mu.Unlock()
		c.Response().Header().Set("Retry-After", retry)
		return nil, echo.NewHTTPError(http.StatusTooManyRequests, "one export at a time per client: this one waits for the one you are downloading")
	case !account && t.anon >= maxAnonExports:
		t.mu.Unlock()
		c.Response().Header().Set("Retry-After", retry)
		return nil, echo.NewHTTPError(http.StatusServiceUnavailable, "the exports open to visitors without an account are all streaming: try again later, or log in")
	}
	t.byClient[key]++
	if !account {
		t.anon++
	}
	t.mu.Unlock()
	done := func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.byClient[key]--; t.byClient[key] == 0 {
			delete(t.byClient, key)
		}
		if !account {
			t.anon--
		}
	}
	if err := t.all.Enter(c.Request().Context()); err != nil {
		done()
		return nil, err
	}
	return func() { t.all.Leave(); done() }, nil
}
