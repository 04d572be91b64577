package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/templates"
)

// playerJSON is the player object of the API.
type playerJSON struct {
	ID       int64   `json:"id"`
	Name     *string `json:"name"`
	Role     string  `json:"role"`
	Skill    float64 `json:"skill"`
	Solved   int64   `json:"solved"`
	Attempts int64   `json:"attempts"`
	Streak   int     `json:"streak"`
}

func playerObject(p account.Player, s account.Summary) playerJSON {
	j := playerJSON{ID: p.ID, Role: string(p.Role), Skill: p.Skill, Solved: s.Solved, Attempts: s.Attempts, Streak: s.Streak}
	if p.Name != "" {
		j.Name = &p.Name
	}
	return j
}

// apiMe answers the player object of the request's player.
func (s *Server) apiMe(c echo.Context) error {
	p, _ := playerOf(c)
	sum, err := s.players.Summary(c.Request().Context(), p.ID, time.Now())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, playerObject(p, sum))
}

// attemptsPage is the body of GET /api/me/attempts.
type attemptsPage struct {
	Attempts   []attemptJSON `json:"attempts"`
	NextCursor *string       `json:"next_cursor"`
}

// Paging of a player's attempts.
const (
	defaultAttemptsLimit = 20
	maxAttemptsLimit     = record.MaxLimit
)

// attemptsQuery reads limit and cursor (the last attempt id of the
// previous page, as next_cursor gave it).
func attemptsQuery(c echo.Context) (limit int, before int64, err error) {
	limit = defaultAttemptsLimit
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxAttemptsLimit {
			return 0, 0, badRequest("invalid \"limit\" %q: a whole number from 1 to %d", v, maxAttemptsLimit)
		}
		limit = n
	}
	if v := c.QueryParam("cursor"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return 0, 0, badRequest("invalid \"cursor\" %q: use the next_cursor of the previous page, or leave it out for the first", v)
		}
		before = n
	}
	return limit, before, nil
}

// pageOfAttempts reads one page and the cursor of the next.
func (s *Server) pageOfAttempts(c echo.Context, player int64, limit int, before int64) ([]account.Attempt, *string, error) {
	as, err := s.players.Attempts(c.Request().Context(), player, before, limit+1)
	if err != nil {
		return nil, nil, err
	}
	var next *string
	if len(as) > limit {
		as = as[:limit]
		cur := strconv.FormatInt(as[limit-1].ID, 10)
		next = &cur
	}
	return as, next, nil
}

// apiMeAttempts pages the player's attempts, newest first.
func (s *Server) apiMeAttempts(c echo.Context) error {
	limit, before, err := attemptsQuery(c)
	if err != nil {
		return err
	}
	p, _ := playerOf(c)
	as, next, err := s.pageOfAttempts(c, p.ID, limit, before)
	if err != nil {
		return err
	}
	out := attemptsPage{Attempts: make([]attemptJSON, len(as)), NextCursor: next}
	for i, a := range as {
		out.Attempts[i] = attemptOf(a)
	}
	return c.JSON(http.StatusOK, out)
}

// exportJSON is everything stored about a player.
type exportJSON struct {
	Player   exportPlayer  `json:"player"`
	Sessions []datesJSON   `json:"sessions"`
	Tokens   []datesJSON   `json:"tokens"`
	Attempts []attemptJSON `json:"attempts"`
}

type exportPlayer struct {
	ID          int64     `json:"id"`
	Name        *string   `json:"name"`
	Role        string    `json:"role"`
	Skill       float64   `json:"skill"`
	CreatedAt   time.Time `json:"created_at"`
	HasPassword bool      `json:"has_password"`
}

type datesJSON struct {
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt *time.Time `json:"expires_at"`
}

// apiMeExport answers everything stored about the player.
func (s *Server) apiMeExport(c echo.Context) error {
	p, _ := playerOf(c)
	e, err := s.players.ExportPlayer(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	out := exportJSON{
		Player:   exportPlayer{ID: e.Player.ID, Role: string(e.Player.Role), Skill: e.Player.Skill, CreatedAt: e.Player.CreatedAt, HasPassword: e.Player.HasPassword},
		Sessions: datesOf(e.Sessions), Tokens: datesOf(e.Tokens), Attempts: make([]attemptJSON, len(e.Attempts)),
	}
	if e.Player.Name != "" {
		out.Player.Name = &e.Player.Name
	}
	for i, a := range e.Attempts {
		out.Attempts[i] = attemptOf(a)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="sudoku-me.json"`)
	return c.JSON(http.StatusOK, out)
}

func datesOf(ds []account.Dates) []datesJSON {
	out := make([]datesJSON, len(ds))
	for i, d := range ds {
		out[i].CreatedAt = d.Created
		if !d.Expires.IsZero() {
			out[i].ExpiresAt = &d.Expires
		}
	}
	return out
}

// apiMeDelete deletes the player, its attempts and sessions (204).
func (s *Server) apiMeDelete(c echo.Context) error {
	if err := s.deleteMe(c); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) deleteMe(c echo.Context) error {
	p, _ := playerOf(c)
	if err := s.players.DeletePlayer(c.Request().Context(), p.ID, actorOf(c)); err != nil && !errors.Is(err, account.ErrNoPlayer) {
		return err
	}
	if sessionOf(c) != nil {
		s.setSession(c, "")
	}
	return nil
}

// meDelete is the form of /me that deletes the player.
func (s *Server) meDelete(c echo.Context) error {
	// A destructive act asks to confirm (issue 34): the account's name,
	// or "delete" for a player without one, typed again; otherwise /me
	// says what to type and nothing is deleted.
	p, _ := playerOf(c)
	if !deleteConfirmed(p, c.FormValue("confirm")) {
		return c.Redirect(http.StatusSeeOther, "/me?delete=unconfirmed#delete")
	}
	if err := s.deleteMe(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/me?deleted=1")
}

// deleteConfirmed reports whether typed confirms the deletion of p: its
// name (compared as logins compare names) or, for a player without one,
// the word "delete".
func deleteConfirmed(p account.Player, typed string) bool {
	typed = strings.TrimSpace(typed)
	if p.Name == "" {
		return strings.EqualFold(typed, "delete")
	}
	return typed != "" && account.NameKey(typed) == account.NameKey(p.Name)
}

// mePage is the player's dashboard.
func (s *Server) mePage(c echo.Context) error {
	v := templates.MeView{CSRF: csrfToken(c), Deleted: c.QueryParam("deleted") == "1", DeleteUnconfirmed: c.QueryParam("delete") == "unconfirmed"}
	p, ok := playerOf(c)
	if !ok {
		return s.render(c, http.StatusOK, templates.MePage(v))
	}
	limit, before, err := attemptsQuery(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sum, err := s.players.Summary(ctx, p.ID, time.Now())
	if err != nil {
		return err
	}
	as, next, err := s.pageOfAttempts(c, p.ID, limit, before)
	if err != nil {
		return err
	}
	v.Player, v.Known, v.Summary, v.Attempts = p, true, sum, as
	if v.Tokens, err = s.players.Tokens(ctx, p.ID); err != nil {
		return err
	}
	v.Revoked = c.QueryParam("revoked")
	if next != nil {
		v.NextURL = fmt.Sprintf("/me?limit=%d&cursor=%s#attempts", limit, *next)
	}
	return s.render(c, http.StatusOK, templates.MePage(v))
}
