package web

// admin.go: the moderation pages (/admin/flags, /admin/audit), their
// forms, a hidden puzzle's page for moderators, and the players' "Report
// this puzzle" form. The JSON calls are in moderation.go.

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// Page sizes of the moderation pages.
const (
	flagsPage = 20 // flagged puzzles
	auditPage = 50 // audit entries
)

// cursorParam reads a page cursor, an id, from the query parameter name:
// 0 when absent.
func cursorParam(c echo.Context, name string) (int64, error) {
	v := c.QueryParam(name)
	if v == "" {
		return 0, nil
	}
	return userinput.ParseWhole(name, v, 1, math.MaxInt64)
}

// adminFlags shows the moderators' queue, a page at a time (keyset: the
// id of the last page's last oldest flag).
func (s *Server) adminFlags(c echo.Context) error {
	v, err := s.flagsView(c)
	if err != nil {
		return err
	}
	if id, err := cursorParam(c, "hidden"); err == nil && id > 0 {
		v.Done = fmt.Sprintf("Puzzle #%d is hidden.", id)
	}
	if id, err := cursorParam(c, "dismissed"); err == nil && id > 0 {
		v.Done = fmt.Sprintf("The reports of puzzle #%d are dismissed.", id)
	}
	return s.render(c, http.StatusOK, templates.AdminFlagsPage(v))
}

// flagsView reads the page of the queue that c's query asks for.
func (s *Server) flagsView(c echo.Context) (templates.AdminFlagsView, error) {
	after, err := cursorParam(c, "after")
	if err != nil {
		return templates.AdminFlagsView{}, err
	}
	fs, err := s.mod.OpenFlags(c.Request().Context(), after, flagsPage+1)
	if err != nil {
		return templates.AdminFlagsView{}, fmt.Errorf("open flags: %w", err)
	}
	v := templates.AdminFlagsView{CSRF: csrfToken(c), Flagged: fs, First: after == 0, Now: time.Now()}
	if len(fs) > flagsPage {
		v.Flagged = fs[:flagsPage]
		last := v.Flagged[flagsPage-1]
		if len(last.Flags) > 0 {
			v.NextURL = "/admin/flags?after=" + strconv.FormatInt(last.Flags[0].ID, 10)
		}
	}
	return v, nil
}

// adminAudit shows the audit trail, newest first, a page at a time
// (keyset: the id of the last entry shown).
func (s *Server) adminAudit(c echo.Context) error {
	before, err := cursorParam(c, "before")
	if err != nil {
		return err
	}
	es, err := s.mod.Audit(c.Request().Context(), before, auditPage+1)
	if err != nil {
		return fmt.Errorf("audit trail: %w", err)
	}
	v := templates.AdminAuditView{Entries: es, First: before == 0, Now: time.Now()}
	if len(es) > auditPage {
		v.Entries = es[:auditPage]
		v.NextURL = "/admin/audit?before=" + strconv.FormatInt(v.Entries[auditPage-1].ID, 10)
	}
	return s.render(c, http.StatusOK, templates.AdminAuditPage(v))
}

// adminHide hides a puzzle from the queue's form, then shows the queue
// again (303). A missing reason, or a puzzle hidden meanwhile, shows the
// queue with the reason next to the puzzle (400 or 409).
func (s *Server) adminHide(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	reason := c.FormValue("reason")
	checked, err := moderation.CheckReason(reason)
	if err == nil {
		_, err = s.mod.HidePuzzle(c.Request().Context(), id, actorOf(c), checked)
	}
	if err != nil {
		return s.flagsRefused(c, id, reason, err)
	}
	return c.Redirect(http.StatusSeeOther, "/admin/flags?hidden="+strconv.FormatInt(id, 10))
}

// adminDismiss closes a puzzle's open flags, then shows the queue again.
func (s *Server) adminDismiss(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if _, err := s.mod.Dismiss(c.Request().Context(), id, actorOf(c), c.FormValue("reason")); err != nil {
		return s.flagsRefused(c, id, "", err)
	}
	return c.Redirect(http.StatusSeeOther, "/admin/flags?dismissed="+strconv.FormatInt(id, 10))
}

// flagsRefused answers a refused act on puzzle id: the queue again, the
// reason shown by the puzzle, with the error's status (400, 409); other
// errors (404, 5xx) go to the error page.
func (s *Server) flagsRefused(c echo.Context, id int64, reason string, err error) error {
	status := classify(err).status
	if status != http.StatusBadRequest && status != http.StatusConflict {
		return err
	}
	v, verr := s.flagsView(c)
	if verr != nil {
		return verr
	}
	v.Error, v.ErrorFor, v.Reason = err.Error(), id, reason
	return s.render(c, status, templates.AdminFlagsPage(v))
}

// adminRestore shows a hidden puzzle again, then opens its page.
func (s *Server) adminRestore(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if err := s.mod.RestorePuzzle(c.Request().Context(), id, actorOf(c), c.FormValue("reason")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, templates.PuzzleURL(id))
}

// pagePuzzle loads the puzzle of a page: for a moderator, a hidden one
// too, with who hid it (nil for a visible puzzle).
func (s *Server) pagePuzzle(c echo.Context) (record.Puzzle, *moderation.Hidden, error) {
	p, err := s.puzzleParam(c)
	if !errors.Is(err, record.ErrNotFound) || s.mod == nil || !isModerator(c) {
		return p, nil, err
	}
	id, perr := userinput.ParseID("id", c.Param("id"))
	if perr != nil {
		return p, nil, err
	}
	p, hidden, err := s.mod.ModPuzzle(c.Request().Context(), id)
	if err != nil {
		return record.Puzzle{}, nil, fmt.Errorf("load puzzle %d: %w", id, err)
	}
	return p, hidden, nil
}

// moderationView adds to a puzzle page what moderation shows there: the
// hidden banner for moderators, the report form for everyone else.
func (s *Server) moderationView(c echo.Context, v *templates.PuzzleView, hidden *moderation.Hidden) {
	if s.mod == nil {
		return
	}
	if hidden != nil {
		v.Hidden = &templates.HiddenBanner{CSRF: csrfToken(c), Hidden: *hidden}
		return
	}
	v.Flag = &templates.FlagForm{CSRF: csrfToken(c), Done: c.QueryParam("flagged") == "1"}
}

// flagForm records a player's report of a puzzle (the first post makes an
// anonymous player, as the first play does), then opens the puzzle page
// again, saying thanks (303). A bad reason or text, or a second report,
// shows the page with the form and why (400, 409).
func (s *Server) flagForm(c echo.Context) error {
	p, err := s.puzzleParam(c)
	if err != nil {
		return err
	}
	player, _ := playerOf(c)
	form := templates.FlagForm{CSRF: csrfToken(c), Reason: c.FormValue("reason"), Text: c.FormValue("text")}
	reason, err := moderation.ParseReason(form.Reason)
	if err == nil {
		_, err = s.mod.Flag(c.Request().Context(), p.ID, player.ID, reason, form.Text)
	}
	if err == nil {
		return c.Redirect(http.StatusSeeOther, templates.PuzzleURL(p.ID)+"?flagged=1")
	}
	a := classify(err)
	status := a.status
	if status != http.StatusBadRequest && status != http.StatusConflict {
		return err
	}
	// The text written for the reader, never the wrapped internal one
	// ("flag puzzle 3: …"; issue 34).
	form.Error = sentence(a.body.Error)
	if errors.Is(err, moderation.ErrFlagged) {
		form.Error = "You have reported this puzzle already, thank you: a player reports a puzzle once, and the moderators have your report."
	}
	v := templates.PuzzleView{
		Puzzle: p, Runs: minRuns, Now: time.Now(), Origin: origin(c),
		HistoryURL:  "/puzzles?sort=human&order=desc&around=" + strconv.FormatInt(p.ID, 10),
		SolutionURL: templates.PuzzleURL(p.ID) + "?solution=1",
		Equivalents: []record.Puzzle{p}, Flag: &form,
	}
	if v.Collect, err = s.collectBox(c, p, false); err != nil { // collect.go
		return err
	}
	return s.render(c, status, templates.PuzzlePage(v))
}
