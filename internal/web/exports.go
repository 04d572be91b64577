package web

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/sudoku-archive/sudoku/internal/account"
)

// Exports (GET /api/export) stream for as long as their clients read, at
// any pace, so their turns are handed out by one rule (docs/api.md
// "Export turns", docs/reliability.md), which no throwaway account can get
// around (issue 45: two slow anonymous downloads and two accounts signed
// up a moment earlier from one address held every turn):
//
//   - at most maxExports stream at once, and exportStaffTurns of them are
//     kept for moderators and admins;
//   - one export at a time per account (or token) and per address, an
//     IPv6 address counted by its /64 (clientAddress); moderators and
//     admins are counted by account alone;
//   - clients without an account, and accounts younger than
//     newAccountAge, share maxAnonExports turns: a new account waits like
//     an anonymous client, so signing up buys nothing.
//
// A refused export is answered at once, with a message that says which
// limit refused it and a Retry-After of exportRetry.
// `serve --export-requires-account` closes exports to anonymous clients
// altogether.
const (
	maxExports       = 4
	exportStaffTurns = 1
	maxAnonExports   = 2
	// newAccountAge is how old a player (counted from its first play, when
	// the store made it) must be for its exports to stop counting as an
	// anonymous client's.
	newAccountAge = 24 * time.Hour
	// exportRetry is the Retry-After of an export refused a turn: an
	// export of the whole archive streams for seconds to minutes, so a
	// client retrying every second would only add load.
	exportRetry = 10 * time.Second
)

// msgExportAccount says why an anonymous export is refused under
// Config.ExportNeedsAccount.
const msgExportAccount = "exports are open to accounts only here: log in (or sign up) at /login, or send Authorization: Bearer TOKEN (sudoku user token)"

// exportTurns hands out the turns at streaming an export.
type exportTurns struct {
	mu       sync.Mutex
	byClient map[string]int // exports streaming, by account and by address
	all      int            // exports streaming
	staff    int            // of which by moderators and admins
	anon     int            // of which without an account, or by a new one
}

func newExportTurns() *exportTurns {
	return &exportTurns{byClient: make(map[string]int)}
}

// exportClient is who asks for an export, as the turns count it.
type exportClient struct {
	keys  []string // what it is counted by: its account, its address
	staff bool     // a moderator or admin
	anon  bool     // no account, or one younger than newAccountAge
}

// exportClientOf says who the request c is, as the turns count it.
func exportClientOf(c echo.Context, now time.Time) exportClient {
	addr := "addr:" + clientAddress(c)
	p, ok := playerOf(c)
	if !ok || !hasAccount(c) {
		return exportClient{keys: []string{addr}, anon: true}
	}
	who := exportClient{keys: []string{"player:" + strconv.FormatInt(p.ID, 10)}}
	if p.Role.AtLeast(account.RoleModerator) {
		who.staff = true
		return who
	}
	who.keys = append(who.keys, addr)
	who.anon = now.Sub(p.CreatedAt) < newAccountAge
	return who
}

// refusal is why who may not take a turn now, "" when it may, with the
// status to answer; t.mu is held.
func (t *exportTurns) refusal(who exportClient) (int, string) {
	for _, k := range who.keys {
		if t.byClient[k] > 0 {
			return http.StatusTooManyRequests, "one export at a time per account and per address: this one waits for the export already streaming to you"
		}
	}
	switch {
	case t.all >= maxExports:
		return http.StatusServiceUnavailable, fmt.Sprintf("all %d export turns are streaming: try again in a little while", maxExports)
	case !who.staff && t.all-t.staff >= maxExports-exportStaffTurns:
		return http.StatusServiceUnavailable, fmt.Sprintf("the %d export turns open to players are all streaming (the last is kept for moderators): try again in a little while", maxExports-exportStaffTurns)
	case who.anon && t.anon >= maxAnonExports:
		return http.StatusServiceUnavailable, fmt.Sprintf("the %d export turns open to visitors without an account, and to accounts younger than %d hours, are all streaming: try again in a little while, or with an older account",
			maxAnonExports, int(newAccountAge/time.Hour))
	}
	return 0, ""
}

// add counts who's export in (n 1) or out (n -1); t.mu is held.
func (t *exportTurns) add(who exportClient, n int) {
	for _, k := range who.keys {
		if t.byClient[k] += n; t.byClient[k] == 0 {
			delete(t.byClient, k)
		}
	}
	t.all += n
	if who.staff {
		t.staff += n
	}
	if who.anon {
		t.anon += n
	}
}

// enterExport takes a turn for the request c, or answers why not: 401 for an
// anonymous client where exports need an account, 429 for a client (an
// account or an address) already streaming one, 503 when the turns it may
// take are all taken; both with Retry-After. The caller calls leave once
// done.
func (s *Server) enterExport(c echo.Context) (leave func(), err error) {
	t := s.exports
	if !hasAccount(c) && s.cfg.ExportNeedsAccount {
		return nil, echo.NewHTTPError(http.StatusUnauthorized, msgExportAccount)
	}
	who := exportClientOf(c, time.Now())
	t.mu.Lock()
	defer t.mu.Unlock()
	if status, why := t.refusal(who); status != 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(exportRetry/time.Second)))
		return nil, echo.NewHTTPError(status, why)
	}
	t.add(who, 1)
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.add(who, -1)
	}, nil
}
