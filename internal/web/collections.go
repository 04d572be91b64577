package web

// collections.go serves the collections (docs/api.md "Collections",
// docs/pages.md): the JSON API, the pages, and who may add to one.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// Collections is what the server needs of the archive's collections
// (Parts.Collections; *store.DB provides it); without it the collection
// routes are not served.
type Collections interface {
	// CreateCollection makes a collection; a name in use is a
	// record.KindConflict error.
	CreateCollection(ctx context.Context, c record.Collection) (record.Collection, error)
	// Collection returns one, or a record.KindNotFound error.
	Collection(ctx context.Context, id int64) (record.Collection, error)
	// Collections returns every collection, by name.
	Collections(ctx context.Context) ([]record.Collection, error)
	// AddToCollection files an archived puzzle under a collection (added
	// false when it was there already).
	AddToCollection(ctx context.Context, id, puzzleID int64) (added bool, err error)
}

// msgNeedAccount is the 401 of a collection write without an account.
const msgNeedAccount = "collections need an account: log in, or send Authorization: Bearer TOKEN (from sudoku user token)"

// accountOf returns the request's player when it is an account (a named
// player: a session after login, or an API token); otherwise a 401 that
// says how to become one.
func accountOf(c echo.Context) (account.Player, error) {
	p, ok := playerOf(c)
	if !ok || p.Name == "" {
		return p, echo.NewHTTPError(http.StatusUnauthorized, msgNeedAccount)
	}
	return p, nil
}

// submitterOf is the account a submission of c is made with, 0 for none:
// the puzzle object's submitted_by.
func submitterOf(c echo.Context) int64 {
	if p, ok := playerOf(c); ok && p.Name != "" {
		return p.ID
	}
	return 0
}

// collectionRequest is the body of POST /api/collections.
type collectionRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Author      string `json:"author"`
	Source      string `json:"source"`
	Licence     string `json:"licence"`
}

// apiCreateCollection makes a collection owned by the request's account:
// 201 with the collection object and its Location.
func (s *Server) apiCreateCollection(c echo.Context) error {
	p, err := accountOf(c)
	if err != nil {
		return err
	}
	var r collectionRequest
	if err := readJSON(c, &r); err != nil {
		return err
	}
	col, err := s.collections.CreateCollection(c.Request().Context(), record.Collection{
		Name: r.Name, Description: r.Description, Author: r.Author, Source: r.Source, Licence: r.Licence, OwnerID: p.ID})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, collectionURL(col.ID))
	return c.JSON(http.StatusCreated, col)
}

// collectionURL is the page of collection id.
func collectionURL(id int64) string { return "/collections/" + strconv.FormatInt(id, 10) }

// apiCollections lists every collection.
func (s *Server) apiCollections(c echo.Context) error {
	cs, err := s.collections.Collections(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string][]record.Collection{"collections": cs})
}

// collectionParam loads the collection of the :id path parameter; an id
// that is no canonical positive number names none.
func (s *Server) collectionParam(c echo.Context) (record.Collection, error) {
	id, err := userinput.ParseID("id", c.Param("id"))
	if err != nil {
		return record.Collection{}, record.ErrNoCollection(userinput.Echo(c.Param("id")))
	}
	return s.collections.Collection(c.Request().Context(), id)
}

// collectionResponse is the answer to GET /api/collections/{id}: the
// collection and a page of its puzzles, as GET /api/puzzles answers.
type collectionResponse struct {
	Collection record.Collection `json:"collection"`
	listResponse
}

// collectionQuery reads the listing parameters of a collection's puzzles:
// the history's, but technique=, which the archive does not combine with a
// collection (each has its own index and cursor): a 400 that says so,
// rather than the archive's refusal as a 500.
func collectionQuery(c echo.Context, col record.Collection) (record.ListQuery, error) {
	q, v, err := requestListQuery(c)
	if err != nil {
		return q, err
	}
	if q.Techniques != "" {
		return q, &userinput.InputError{Name: `"technique"`, Value: v.Get("technique"),
			Reason: "a collection's puzzles are not filtered by technique; /puzzles?technique= filters the whole archive"}
	}
	q.Collection = col.ID
	return q, nil
}

// apiCollection answers a collection and one page of its puzzles, sorted,
// filtered and paged by the parameters of GET /api/puzzles.
func (s *Server) apiCollection(c echo.Context) error {
	col, err := s.collectionParam(c)
	if err != nil {
		return err
	}
	q, err := collectionQuery(c, col)
	if err != nil {
		return err
	}
	page, err := s.archive.List(c.Request().Context(), q)
	if err != nil {
		return fmt.Errorf("list collection %d: %w", col.ID, err)
	}
	res := collectionResponse{Collection: col, listResponse: listResponse{Puzzles: page.Puzzles, Total: page.Total}}
	if res.Puzzles == nil {
		res.Puzzles = []record.Puzzle{}
	}
	if page.NextCursor != "" {
		res.NextCursor = &page.NextCursor
	}
	if page.PrevCursor != "" {
		res.PrevCursor = &page.PrevCursor
	}
	return c.JSON(http.StatusOK, res)
}

// addRequest is the body of POST /api/collections/{id}/puzzles: a puzzle
// archived already ("id") or puzzle text or a grid, archived like a
// submission when new.
type addRequest struct {
	puzzleRequest
	ID *int64 `json:"id"`
}

// apiAddToCollection files a puzzle under a collection: 201 with the
// puzzle object when added, 200 when it was there already. Only the
// collection's owner, a moderator or an admin may.
func (s *Server) apiAddToCollection(c echo.Context) error {
	p, err := accountOf(c)
	if err != nil {
		return err
	}
	col, err := s.collectionParam(c)
	if err != nil {
		return err
	}
	if err := mayAdd(p, col); err != nil {
		return err
	}
	var r addRequest
	if err := readJSON(c, &r); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := s.puzzleToAdd(c, r)
	if err != nil {
		return err
	}
	added, err := s.collections.AddToCollection(ctx, col.ID, id)
	if err != nil {
		return err
	}
	stored, err := s.archive.Puzzle(ctx, id)
	if err != nil {
		return fmt.Errorf("load puzzle %d: %w", id, err)
	}
	c.Response().Header().Set(echo.HeaderLocation, templates.PuzzleURL(id))
	if !added {
		return c.JSON(http.StatusOK, stored)
	}
	return c.JSON(http.StatusCreated, stored)
}

// puzzleToAdd returns the id of the puzzle an add request names: its id,
// or its text or grid archived as a submission of the request's account.
func (s *Server) puzzleToAdd(c echo.Context, r addRequest) (int64, error) {
	hasText := r.Puzzle != nil || given(r.Grid) || given(r.FPuzzles)
	switch {
	case r.ID != nil && hasText:
		return 0, badRequest(`give "id" or the puzzle ("puzzle" or "grid"), not both`)
	case r.ID != nil:
		// Read as any request reads it: a puzzle the asker may not see
		// (hidden) is not found.
		p, err := s.archive.Puzzle(c.Request().Context(), *r.ID)
		if err != nil {
			return 0, fmt.Errorf("load puzzle %d: %w", *r.ID, err)
		}
		return p.ID, nil
	case !hasText:
		return 0, badRequest(`the body must be a JSON object with "id" (an archived puzzle), "puzzle" (text) or "grid"`)
	}
	p, err := r.read()
	if err != nil {
		return 0, err
	}
	stored, _, err := s.arch.Submit(c.Request().Context(), archive.FromText(archive.RoadCollection, p, submitterOf(c)))
	if err != nil {
		return 0, err
	}
	return stored.ID, nil
}

// collectionsPage lists the collections, with the form to make one for a
// signed-in account.
func (s *Server) collectionsPage(c echo.Context) error {
	return s.renderCollections(c, http.StatusOK, templates.CollectionForm{})
}

// deletedName is the ?deleted= of the collections page, which the
// deletion form sends its poster to: the name, kept printable and short.
func deletedName(c echo.Context) string {
	name := printable(c.QueryParam("deleted"))
	if utf8.RuneCountInString(name) > record.MaxCollectionName {
		return ""
	}
	return name
}

// renderCollections renders the collections page with form.
func (s *Server) renderCollections(c echo.Context, status int, form templates.CollectionForm) error {
	cs, err := s.collections.Collections(c.Request().Context())
	if err != nil {
		return err
	}
	_, accountErr := accountOf(c)
	form.CSRF = csrfToken(c)
	return s.render(c, status, templates.CollectionsPage(templates.CollectionsView{
		Collections: cs, CanCreate: accountErr == nil, Form: form, Deleted: deletedName(c)}))
}

// createCollectionForm is the form post of /collections: 303 to the new
// collection, or the page again with the reason (422; 401 without an
// account).
func (s *Server) createCollectionForm(c echo.Context) error {
	p, err := accountOf(c)
	if err != nil {
		return err
	}
	form := templates.CollectionForm{Name: c.FormValue("name"), Description: c.FormValue("description"),
		Author: c.FormValue("author"), Source: c.FormValue("source"), Licence: c.FormValue("licence")}
	col, err := s.collections.CreateCollection(c.Request().Context(), record.Collection{Name: form.Name, Description: form.Description,
		Author: form.Author, Source: form.Source, Licence: form.Licence, OwnerID: p.ID})
	var lookalike *account.LookalikeError
	if errors.As(err, &lookalike) { // a name that looks like another collection's (issue 45), as one taken
		form.Error = lookalike.Error()
		return s.renderCollections(c, http.StatusUnprocessableEntity, form)
	}
	var refused *record.CollectionError
	if errors.As(err, &refused) {
		form.Error = refused.Error()
		return s.renderCollections(c, http.StatusUnprocessableEntity, form)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, collectionURL(col.ID))
}

// collectionPage shows a collection's credits and its puzzles, sortable
// and paged like the history, with the "Add a puzzle" form for those who
// may add to it.
func (s *Server) collectionPage(c echo.Context) error {
	col, err := s.collectionParam(c)
	if err != nil {
		return err
	}
	form, err := s.addPuzzleFormOf(c, col)
	if err != nil {
		return err
	}
	return s.renderCollection(c, http.StatusOK, col, form)
}

// renderCollection renders col's page with its "Add a puzzle" form (nil
// for none).
func (s *Server) renderCollection(c echo.Context, status int, col record.Collection, form *templates.AddPuzzleForm) error {
	q, err := collectionQuery(c, col)
	if err != nil {
		return err
	}
	page, err := s.archive.List(c.Request().Context(), q)
	if err != nil {
		return fmt.Errorf("list collection %d: %w", col.ID, err)
	}
	view := templates.HistoryView{Sort: q.Sort, Desc: q.Desc, UniqueOnly: q.UniqueOnly, Distinct: q.Distinct, GradeMin: q.GradeMin,
		GradeMax: q.GradeMax, Band: q.Band, Limit: q.Limit, Cursor: q.Cursor, Played: q.Played, Page: page, Now: time.Now(), Collection: &col}
	_, view.HasPlayer = playerOf(c)
	if form != nil {
		form.CSRF = csrfToken(c)
		view.AddPuzzle = form
	}
	return s.render(c, status, templates.HistoryPage(view))
}
