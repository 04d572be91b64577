package web

// modapi.go: the moderation API (docs/moderation.md): flags, hide,
// restore, dismiss, delete, the moderators' queue and the audit trail.
// Who may call each is declared on its row of the route table (routes.go).

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// flagRequest is the body of POST /api/puzzles/{id}/flag.
type flagRequest struct {
	Reason *string `json:"reason"`
	Text   string  `json:"text"`
}

// reasonRequest is the body of hide, restore, dismiss and delete.
type reasonRequest struct {
	Reason *string `json:"reason"`
}

// parseFlag reads and checks a flag's body: the reason one of
// docs/moderation.md's, the text within moderation.MaxFlagText.
func parseFlag(c echo.Context) (moderation.Reason, string, error) {
	var req flagRequest
	if err := readJSON(c, &req); err != nil {
		return "", "", err
	}
	if req.Reason == nil {
		return "", "", badRequest(`send {"reason": "wrong"|"duplicate"|"offensive"|"copyright"|"other", "text": "..."}`)
	}
	r, err := moderation.ParseReason(*req.Reason)
	if err != nil {
		return "", "", err
	}
	if err := moderation.CheckText("text", req.Text, moderation.MaxFlagText); err != nil {
		return "", "", err
	}
	return r, req.Text, nil
}

// parseReason reads the optional body {"reason": "..."}: an empty body is
// no reason; required refuses none.
func parseReason(c echo.Context, required bool) (string, error) {
	var req reasonRequest
	if c.Request().ContentLength != 0 {
		if err := readJSON(c, &req); err != nil {
			return "", err
		}
	}
	reason := ""
	if req.Reason != nil {
		reason = *req.Reason
	}
	if required {
		return moderation.CheckReason(reason)
	}
	return reason, moderation.CheckText("reason", reason, moderation.MaxReason)
}

// idParam reads the :id path parameter; an id that is not a canonical
// positive number names no puzzle (404).
func idParam(c echo.Context) (int64, error) {
	id, err := userinput.ParseID("id", c.Param("id"))
	if err != nil {
		return 0, record.ErrNotFound
	}
	return id, nil
}

// apiFlag records the player's flag on a puzzle: 201 with the flag; 409
// when the player flagged it before, 404 for a hidden or unknown puzzle.
func (s *Server) apiFlag(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	reason, text, err := parseFlag(c)
	if err != nil {
		return err
	}
	p, _ := playerOf(c)
	f, err := s.mod.Flag(c.Request().Context(), id, p.ID, reason, text)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, f)
}

// hiddenResponse answers a hide: who hid the puzzle, when and why.
type hiddenResponse struct {
	moderation.Hidden
	IsHidden bool `json:"hidden"`
}

// apiHide hides a puzzle (moderators): 200 with who, when and why.
func (s *Server) apiHide(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	reason, err := parseReason(c, true)
	if err != nil {
		return err
	}
	h, err := s.mod.HidePuzzle(c.Request().Context(), id, actorOf(c), reason)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, hiddenResponse{h, true})
}

// apiRestore shows a hidden puzzle again (moderators): 200 with the puzzle.
func (s *Server) apiRestore(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	reason, err := parseReason(c, false)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.mod.RestorePuzzle(ctx, id, actorOf(c), reason); err != nil {
		return err
	}
	p, err := s.archive.Puzzle(ctx, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, modPuzzle{Puzzle: p})
}

// apiDismiss closes a puzzle's open flags without hiding it (moderators).
func (s *Server) apiDismiss(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	reason, err := parseReason(c, false)
	if err != nil {
		return err
	}
	n, err := s.mod.Dismiss(c.Request().Context(), id, actorOf(c), reason)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int{"dismissed": n})
}

// apiDeletePuzzle removes a puzzle with its attempts and flags (admins):
// 204.
func (s *Server) apiDeletePuzzle(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	reason, err := parseReason(c, false)
	if err != nil {
		return err
	}
	if err := s.mod.DeletePuzzle(c.Request().Context(), id, actorOf(c), reason); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// modPuzzle is the puzzle object as moderators see it: "hidden" always,
// and who hid it when it is hidden.
type modPuzzle struct {
	record.Puzzle
	IsHidden bool               `json:"hidden"`
	HiddenBy *moderation.Hidden `json:"hidden_by,omitempty"`
}

// pageParams reads a paged moderation listing's cursor (a whole number,
// named name) and limit (1..max, default 20).
func pageParams(c echo.Context, name string, maxLimit int64) (int64, int, error) {
	var cursor int64
	limit := int64(record.DefaultLimit)
	var err error
	if v := c.QueryParam(name); v != "" {
		if cursor, err = userinput.ParseWhole(name, v, 0, 1<<62); err != nil {
			return 0, 0, err
		}
	}
	if v := c.QueryParam("limit"); v != "" {
		if limit, err = userinput.ParseWhole("limit", v, 1, maxLimit); err != nil {
			return 0, 0, err
		}
	}
	return cursor, int(limit), nil
}

// flagsResponse is a page of the moderators' queue.
type flagsResponse struct {
	Flagged    []moderation.Flagged `json:"flagged"`
	NextCursor *string              `json:"next_cursor"`
}

// apiFlags pages the moderators' queue: the visible puzzles with open
// flags, oldest flag first; ?cursor= is the next_cursor of the page before.
func (s *Server) apiFlags(c echo.Context) error {
	after, limit, err := pageParams(c, "cursor", record.MaxLimit)
	if err != nil {
		return err
	}
	fs, err := s.mod.OpenFlags(c.Request().Context(), after, limit+1)
	if err != nil {
		return err
	}
	resp := flagsResponse{Flagged: fs}
	if resp.Flagged == nil {
		resp.Flagged = []moderation.Flagged{}
	}
	if len(fs) > limit {
		resp.Flagged = fs[:limit]
		next := strconv.FormatInt(fs[limit-1].Flags[0].ID, 10)
		resp.NextCursor = &next
	}
	return c.JSON(http.StatusOK, resp)
}

// auditResponse is a page of the audit trail.
type auditResponse struct {
	Entries    []moderation.Entry `json:"entries"`
	NextCursor *string            `json:"next_cursor"`
}

// apiAudit pages the audit trail, newest first; ?cursor= is the
// next_cursor of the page before.
func (s *Server) apiAudit(c echo.Context) error {
	before, limit, err := pageParams(c, "cursor", moderation.MaxAuditPage-1)
	if err != nil {
		return err
	}
	es, err := s.mod.Audit(c.Request().Context(), before, limit+1)
	if err != nil {
		return err
	}
	resp := auditResponse{Entries: es}
	if resp.Entries == nil {
		resp.Entries = []moderation.Entry{}
	}
	if len(es) > limit {
		resp.Entries = es[:limit]
		next := strconv.FormatInt(es[limit-1].ID, 10)
		resp.NextCursor = &next
	}
	return c.JSON(http.StatusOK, resp)
}

// modView answers GET /api/puzzles/{id} for a moderator: hidden puzzles
// too, with "hidden" and who hid it.
func (s *Server) modView(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	p, h, err := s.mod.ModPuzzle(c.Request().Context(), id)
	if err != nil {
		return fmt.Errorf("load puzzle %d: %w", id, err)
	}
	return c.JSON(http.StatusOK, modPuzzle{Puzzle: p, IsHidden: p.Hidden, HiddenBy: h})
}

// refuseHiddenShare answers 404 for a share link of a hidden puzzle,
// written any way (canon is g's canonical form, the zero grid when the
// search found none): it is gone from shares as from every other page.
func (s *Server) refuseHiddenShare(ctx context.Context, g, canon sudoku.Grid) error {
	if s.mod == nil || g.Clues() == 0 {
		return nil
	}
	set, err := s.mod.HiddenClasses(ctx)
	if err != nil || len(set) == 0 {
		return err
	}
	p := record.Puzzle{Givens: g, Canonical: canon}
	if set.Of(&p) != nil {
		return record.ErrNotFound
	}
	return nil
}
