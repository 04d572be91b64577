package web

// collectionedit.go changes and deletes collections (issue 34): the JSON
// API (DELETE /api/collections/{id}/puzzles/{puzzle_id}, PATCH and DELETE
// /api/collections/{id}) and the same on the collection's page, for its
// owner, a moderator or an admin; the archive records each act in the
// audit trail.

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// CollectionEditor is what changing collections needs of the archive
// (Parts.CollectionEditor; *store.DB provides it); without it those
// routes are not served.
type CollectionEditor interface {
	// RemoveFromCollection takes a puzzle out of a collection (it stays
	// archived); a puzzle not in it is a record.KindNotFound error.
	RemoveFromCollection(ctx context.Context, id, puzzleID int64, by moderation.Actor) error
	// UpdateCollection changes a collection's texts (the create rules; a
	// name in use is record.KindConflict) and returns it.
	UpdateCollection(ctx context.Context, c record.Collection, by moderation.Actor) (record.Collection, error)
	// DeleteCollection deletes a collection; its puzzles stay archived.
	DeleteCollection(ctx context.Context, id int64, by moderation.Actor) error
}

// mayEdit refuses p the changing of col unless p owns it or moderates.
func mayEdit(p account.Player, col record.Collection) error {
	if p.ID != col.OwnerID && !p.Role.AtLeast(account.RoleModerator) {
		return record.ErrNotYours(col)
	}
	return nil
}

// editableCollection loads the :id collection for the request's account,
// refusing (401, 404, 403) those who may not change it.
func (s *Server) editableCollection(c echo.Context) (record.Collection, error) {
	p, err := accountOf(c)
	if err != nil {
		return record.Collection{}, err
	}
	col, err := s.collectionParam(c)
	if err != nil {
		return col, err
	}
	return col, mayEdit(p, col)
}

// apiRemoveFromCollection takes the puzzle out of the collection: 204.
func (s *Server) apiRemoveFromCollection(c echo.Context) error {
	col, err := s.editableCollection(c)
	if err != nil {
		return err
	}
	pid, err := userinput.ParseID("puzzle_id", c.Param("puzzle_id"))
	if err != nil {
		return record.ErrNotInCollection(col, 0)
	}
	if err := s.editor.RemoveFromCollection(c.Request().Context(), col.ID, pid, actorOf(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// collectionPatch is the body of PATCH /api/collections/{id}: the fields
// to change (the others stay).
type collectionPatch struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Author      *string `json:"author"`
	Source      *string `json:"source"`
	Licence     *string `json:"licence"`
}

// apply sets col's fields that p gives.
func (p collectionPatch) apply(col *record.Collection) {
	for _, f := range []struct {
		from *string
		to   *string
	}{{p.Name, &col.Name}, {p.Description, &col.Description}, {p.Author, &col.Author}, {p.Source, &col.Source}, {p.Licence, &col.Licence}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
}

// apiUpdateCollection changes the collection's texts: 200 with it.
func (s *Server) apiUpdateCollection(c echo.Context) error {
	col, err := s.editableCollection(c)
	if err != nil {
		return err
	}
	var patch collectionPatch
	if err := readJSON(c, &patch); err != nil {
		return err
	}
	patch.apply(&col)
	got, err := s.editor.UpdateCollection(c.Request().Context(), col, actorOf(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, got)
}

// apiDeleteCollection deletes the collection (its puzzles stay): 204.
func (s *Server) apiDeleteCollection(c echo.Context) error {
	col, err := s.editableCollection(c)
	if err != nil {
		return err
	}
	if err := s.editor.DeleteCollection(c.Request().Context(), col.ID, actorOf(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// removePuzzleForm is the collection page's "Remove a puzzle" form (field
// puzzle: 42 or #42): 303 to the page with ?removed=N, or the page with
// the reason (422).
func (s *Server) removePuzzleForm(c echo.Context) error {
	col, err := s.editableCollection(c)
	if err != nil {
		return err
	}
	input := strings.TrimSpace(c.FormValue("puzzle"))
	pid, perr := userinput.ParseID("puzzle", strings.TrimPrefix(input, "#"))
	if perr == nil {
		err = s.editor.RemoveFromCollection(c.Request().Context(), col.ID, pid, actorOf(c))
	}
	if perr != nil || record.KindOf(err) == record.KindNotFound {
		form := s.editForms(c, col)
		form.RemoveInput = printable(input)
		form.RemoveError = "Puzzle " + printable(input) + " is not in this collection: give the number of one of its puzzles (42 or #42)."
		return s.renderCollection(c, http.StatusUnprocessableEntity, col, form)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, collectionURL(col.ID)+"?removed="+strconv.FormatInt(pid, 10))
}

// editCollectionForm is the collection page's "Edit" form: 303 to the page
// with ?edited=1, or the page with the form as typed and the reason (422).
func (s *Server) editCollectionForm(c echo.Context) error {
	col, err := s.editableCollection(c)
	if err != nil {
		return err
	}
	changed := col
	changed.Name, changed.Description, changed.Author = c.FormValue("name"), c.FormValue("description"), c.FormValue("author")
	changed.Source, changed.Licence = c.FormValue("source"), c.FormValue("licence")
	_, err = s.editor.UpdateCollection(c.Request().Context(), changed, actorOf(c))
	if k := record.KindOf(err); k == record.KindInvalid || k == record.KindConflict {
		form := s.editForms(c, col)
		form.Edit = templates.CollectionForm{Name: changed.Name, Description: changed.Description, Author: changed.Author,
			Source: changed.Source, Licence: changed.Licence, Error: sentence(err.Error())}
		form.EditOpen = true
		return s.renderCollection(c, http.StatusUnprocessableEntity, col, form)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, collectionURL(col.ID)+"?edited=1")
}

// deleteCollectionForm is the collection page's "Delete this collection"
// form (the page asks to confirm first): 303 to /collections, which says
// it is gone and that its puzzles stay.
func (s *Server) deleteCollectionForm(c echo.Context) error {
	col, err := s.editableCollection(c)
	if err != nil {
		return err
	}
	if err := s.editor.DeleteCollection(c.Request().Context(), col.ID, actorOf(c)); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections?deleted="+url.QueryEscape(col.Name))
}

// editForms is the page's forms for one who may change col (the "Add a
// puzzle" form and the others), as addPuzzleFormOf makes them.
func (s *Server) editForms(c echo.Context, col record.Collection) *templates.AddPuzzleForm {
	form, err := s.addPuzzleFormOf(c, col)
	if err != nil || form == nil {
		form = &templates.AddPuzzleForm{}
	}
	return form
}
