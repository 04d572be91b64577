package web

// tokens.go: a player's API tokens, listed and revoked (docs/players.md
// "API tokens"): GET /api/me/tokens, DELETE /api/me/tokens/{id},
// and /me's Revoke form. Tokens are issued by `sudoku user token`; only
// their ids and dates are ever shown.

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// tokenJSON is a token as GET /api/me/tokens lists it.
type tokenJSON struct {
	ID         int64      `json:"id"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"` // null: never used
}

// apiMeTokens lists the player's API tokens, oldest first.
func (s *Server) apiMeTokens(c echo.Context) error {
	p, _ := playerOf(c)
	ts, err := s.players.Tokens(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	out := make([]tokenJSON, len(ts))
	for i, t := range ts {
		out[i] = tokenJSON{ID: t.ID, CreatedAt: t.Created}
		if !t.LastUsed.IsZero() {
			out[i].LastUsedAt = &ts[i].LastUsed
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"tokens": out})
}

// revokeToken revokes the player's token of the path's id: 404 for an id
// not in plain digits or not one of the player's tokens.
func (s *Server) revokeToken(c echo.Context) (int64, error) {
	id, err := userinput.ParseID("id", c.Param("id"))
	if err != nil {
		return 0, echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("token %s not found: ids are written in plain digits, from 1", userinput.Echo(c.Param("id"))))
	}
	p, _ := playerOf(c)
	err = s.players.RevokeToken(c.Request().Context(), p.ID, id, actorOf(c))
	if errors.Is(err, account.ErrNoToken) || errors.Is(err, account.ErrNoPlayer) {
		return 0, echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("token %d not found among this player's tokens", id))
	}
	return id, err
}

// apiMeRevokeToken revokes one of the player's tokens (204).
func (s *Server) apiMeRevokeToken(c echo.Context) error {
	if _, err := s.revokeToken(c); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// meRevokeToken is /me's Revoke form: it needs its confirm box ticked
// (422 otherwise, nothing revoked), then sends back to /me.
func (s *Server) meRevokeToken(c echo.Context) error {
	if c.FormValue("confirm") != "yes" {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "tick the box that confirms the revocation: nothing was revoked")
	}
	id, err := s.revokeToken(c)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/me?revoked=%d#tokens", id))
}
