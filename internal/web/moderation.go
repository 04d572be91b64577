package web

// moderation.go: who may moderate, and the moderation API (docs/moderation.md): flags, hide, restore, delete, the audit trail.

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// Moderation is what the server needs of the archive to moderate it
// (Parts.Moderation; *store.DB provides it); without it the moderation
// routes are not served, and it needs Parts.Players.
//
// Every other read of the archive (Archive's Puzzle, List, Export, Stats,
// the puzzle of the day...) leaves hidden puzzles out; only ModPuzzle
// returns one.
type Moderation interface {
	// Flag records player's flag on a visible puzzle: record.ErrNotFound
	// for a hidden or unknown puzzle, moderation.ErrFlagged for a second
	// flag by the same player.
	Flag(ctx context.Context, puzzleID, player int64, reason moderation.Reason, text string) (moderation.Flag, error)
	// OpenFlags pages the moderators' queue: visible puzzles with open
	// flags, by the id of their oldest open flag, after the flag id after
	// (0 for the first page), at most limit puzzles.
	OpenFlags(ctx context.Context, after int64, limit int) ([]moderation.Flagged, error)
	// Dismiss closes the open flags of a puzzle (moderation.ErrNoOpenFlags
	// when there are none) and records it; it returns how many.
	Dismiss(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) (int, error)
	// HidePuzzle hides a puzzle (moderation.ErrAlreadyHidden), resolves its open
	// flags and records it; the counters stop counting it.
	HidePuzzle(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) (moderation.Hidden, error)
	// RestorePuzzle shows a hidden puzzle again (moderation.ErrNotHidden) and
	// records it.
	RestorePuzzle(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) error
	// DeletePuzzle removes a puzzle, hidden or not, with its attempts and
	// flags, and records it.
	DeletePuzzle(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) error
	// ModPuzzle is the moderators' read of a puzzle: hidden ones too
	// (Puzzle.Hidden), with who hid it (nil when it is visible).
	ModPuzzle(ctx context.Context, id int64) (record.Puzzle, *moderation.Hidden, error)
	// Audit pages the audit trail, newest first, entries before the id
	// before (0 for the newest), at most limit.
	Audit(ctx context.Context, before int64, limit int) ([]moderation.Entry, error)
	// HiddenClasses returns the hidden puzzles by class: a share link of
	// one, written any way, is a 404 too.
	HiddenClasses(ctx context.Context) (moderation.HiddenSet, error)
}

// Route middleware of the moderation routes: need answers 401 to the API
// (and sends a page to /login) without a player, 403 to a player below
// the role.
func (s *Server) moderator() echo.MiddlewareFunc { return s.need(account.RoleModerator) }

// admin is the route middleware of admins' routes.
func (s *Server) admin() echo.MiddlewareFunc { return s.need(account.RoleAdmin) }

// isModerator reports whether the request's player is a moderator or an
// admin: they see hidden puzzles.
func isModerator(c echo.Context) bool {
	p, ok := playerOf(c)
	return ok && p.Role.AtLeast(account.RoleModerator)
}

// actorOf is the request's player as the audit names them, with where the
// act came from (the API or a page).
func actorOf(c echo.Context) moderation.Actor {
	p, _ := playerOf(c)
	via := moderation.ViaPage
	if isAPIPath(c.Request().URL.Path) {
		via = moderation.ViaAPI
	}
	return moderation.Actor{ID: p.ID, Name: p.Name, Via: via}
}

// hasAccount reports whether the request comes from an account (a named
// player's session) or an API token: what --anonymous-writes=false asks
// of writers.
func hasAccount(c echo.Context) bool {
	p, ok := playerOf(c)
	return ok && (p.Name != "" || c.Get(rateKeyKey) != nil)
}

// msgClosedWrites says why a write is refused under --anonymous-writes=false.
const msgClosedWrites = "this archive takes writes from accounts only: log in (or sign up) at /login, or send Authorization: Bearer TOKEN (sudoku user token)"

// msgClosedPage is what the form pages say under --anonymous-writes=false
// to a visitor without an account.
const msgClosedPage = "This archive takes new puzzles, imports and generated puzzles from accounts only"

// closedFor is msgClosedPage when the request may not write, "" when it
// may.
func (s *Server) closedFor(c echo.Context) string {
	if s.cfg.ClosedWrites && !hasAccount(c) {
		return msgClosedPage
	}
	return ""
}

// writer is the route middleware of writes (submitting, importing,
// generating): under Config.ClosedWrites a request without an account or
// token is refused, 401 with the reason (the form pages render it).
func (s *Server) writer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.cfg.ClosedWrites && !hasAccount(c) {
			return echo.NewHTTPError(http.StatusUnauthorized, msgClosedWrites)
		}
		return next(c)
	}
}
