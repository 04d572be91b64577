package web

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// playedParam reads the listing's "played" parameter (solved, unplayed; ""
// for every puzzle) into q, with the request's player. The filter is of
// someone's attempts: a request without a player is refused (400) rather
// than answered with the whole archive under a filter it did not apply.
func playedParam(c echo.Context, v url.Values, q *record.ListQuery) error {
	s := v.Get("played")
	if s == "" {
		return nil
	}
	if p := record.Played(s); !p.Valid() {
		return &userinput.InputError{Name: `"played"`, Value: s, Reason: "use solved or unplayed"}
	}
	p, ok := playerOf(c)
	if !ok {
		return badRequest(`"played" lists a player's own puzzles, and this request has no player: play a puzzle in this browser, log in, or send an API token`)
	}
	q.Played, q.Player = record.Played(s), p.ID
	return nil
}
