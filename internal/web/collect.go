package web

// collect.go serves the forms that file puzzles under collections, the
// pages' way to do what POST /api/collections/{id}/puzzles does: "Add to
// collection" on a puzzle's page and "Add a puzzle" on a collection's.

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// mayAdd says whether p may file puzzles under col: its owner, a
// moderator or an admin; anyone else gets the 403 that says so.
func mayAdd(p account.Player, col record.Collection) error {
	if p.ID != col.OwnerID && !p.Role.AtLeast(account.RoleModerator) {
		return record.ErrNotOwner(col)
	}
	return nil
}

// collectBox is the puzzle page's collections part: the collections that
// hold p and, for an account, those it may add p to (none for a hidden
// puzzle, which cannot be added). ?added=C and ?already=C, where the form
// sends its poster, say what became of the post when p is in C.
func (s *Server) collectBox(c echo.Context, p record.Puzzle, hidden bool) (*templates.CollectBox, error) {
	if s.collections == nil {
		return nil, nil
	}
	ctx := c.Request().Context()
	b := &templates.CollectBox{CSRF: csrfToken(c), Hidden: hidden}
	player, err := accountOf(c)
	b.Account = err == nil
	var all []record.Collection
	if b.Account {
		if all, err = s.collections.Collections(ctx); err != nil {
			return nil, fmt.Errorf("list collections: %w", err)
		}
	}
	for _, id := range p.Collections.List() {
		i := slices.IndexFunc(all, func(col record.Collection) bool { return col.ID == id })
		if i >= 0 {
			b.In = append(b.In, all[i])
			continue
		}
		col, err := s.collections.Collection(ctx, id)
		if record.KindOf(err) == record.KindNotFound {
			continue // gone since the puzzle was read
		}
		if err != nil {
			return nil, fmt.Errorf("load collection %d: %w", id, err)
		}
		b.In = append(b.In, col)
	}
	for _, col := range all {
		if !hidden && mayAdd(player, col) == nil {
			b.Mine = append(b.Mine, col)
		}
	}
	b.Notice = collectNotice(c, b.In)
	return b, nil
}

// collectNotice is what the page says after the "Add to collection" post
// sent the browser back with ?added=C or ?already=C: "" unless C holds the
// puzzle.
func collectNotice(c echo.Context, in []record.Collection) string {
	for _, param := range []string{"added", "already"} {
		v := c.QueryParam(param)
		if v == "" {
			continue
		}
		for _, col := range in {
			if strconv.FormatInt(col.ID, 10) == v {
				return map[string]string{"added": "Added to ", "already": "Already in "}[param] + col.Name
			}
		}
	}
	return ""
}

// collectForm is the post of a puzzle page's "Add to collection" form: it
// files the puzzle under the chosen collection (field collection, its
// id), then opens the puzzle page again saying so (303, ?added=C, or
// ?already=C when it was there). Without an account 401 (need sends a
// visitor without a player to /login first); not the visitor's
// collection 403; an unknown collection or puzzle, or a hidden puzzle 404.
func (s *Server) collectForm(c echo.Context) error {
	player, err := accountOf(c)
	if err != nil {
		return err
	}
	p, err := s.puzzleParam(c) // a hidden puzzle is not found, for moderators too
	if err != nil {
		return err
	}
	v := c.FormValue("collection")
	if v == "" {
		return badRequest(`choose a collection ("collection")`)
	}
	id, err := userinput.ParseID("collection", v)
	if err != nil {
		return record.ErrNoCollection(userinput.Echo(v))
	}
	ctx := c.Request().Context()
	col, err := s.collections.Collection(ctx, id)
	if err != nil {
		return err
	}
	if err := mayAdd(player, col); err != nil {
		return err
	}
	added, err := s.collections.AddToCollection(ctx, col.ID, p.ID)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, templates.PuzzleURL(p.ID)+"?"+addedParam(added)+"="+strconv.FormatInt(col.ID, 10))
}

// archivedNumber is how the "Add a puzzle" form takes an archived puzzle:
// its number, with or without '#'. No puzzle text is that short.
var archivedNumber = regexp.MustCompile(`^#?[0-9]{1,18}$`)

// addPuzzleForm is the post of a collection page's "Add a puzzle" form:
// field puzzle holds an archived puzzle's number (42 or #42) or puzzle
// text, read as the home page's form reads it (a SudokuWiki link too) and
// archived, as the API does, when new. Then 303 to the collection's page
// with ?added=N (?already=N when it was there). Text the engine refuses
// comes back as the page with the form, the input kept and the reason
// (422). Like collectForm: 401 without an account, 403 for another's
// collection, 404 for an unknown collection or puzzle or a hidden one.
func (s *Server) addPuzzleForm(c echo.Context) error {
	player, err := accountOf(c)
	if err != nil {
		return err
	}
	col, err := s.collectionParam(c)
	if err != nil {
		return err
	}
	if err := mayAdd(player, col); err != nil {
		return err
	}
	input := strings.TrimSpace(c.FormValue("puzzle"))
	var r addRequest
	if archivedNumber.MatchString(input) {
		id, err := userinput.ParseID("puzzle", strings.TrimPrefix(input, "#"))
		if err != nil {
			return record.ErrNotFound
		}
		r.ID = &id
	} else {
		r.Puzzle = &input
	}
	id, err := s.puzzleToAdd(c, r)
	if k := record.KindOf(err); k == record.KindInvalid || k == record.KindUnprocessable || r.ID != nil && k == record.KindNotFound {
		form := s.editForms(c, col)
		form.Input, form.Error, form.Added = printable(input), sentence(err.Error()), 0
		switch {
		case input == "":
			form.Error = "Give a puzzle: its text, a SudokuWiki link, or an archived puzzle's number"
		case k == record.KindNotFound: // an unknown number is a message on the page, not a bare 404 (issue 34)
			form.Error = "There is no puzzle " + printable(input) + " in the archive: check the number, or paste the puzzle itself"
		}
		return s.renderCollection(c, http.StatusUnprocessableEntity, col, form)
	}
	if err != nil {
		return err
	}
	added, err := s.collections.AddToCollection(c.Request().Context(), col.ID, id)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, collectionURL(col.ID)+"?"+addedParam(added)+"="+strconv.FormatInt(id, 10))
}

// addedParam is the query parameter the forms' redirects say what became
// of the post with: added, or already when the puzzle was there.
func addedParam(added bool) string {
	if added {
		return "added"
	}
	return "already"
}

// addPuzzleFormOf is the "Add a puzzle" form of col's page for the
// request's visitor: nil unless they may add to it; after a post
// (?added=N or ?already=N) it says so when N is in col.
func (s *Server) addPuzzleFormOf(c echo.Context, col record.Collection) (*templates.AddPuzzleForm, error) {
	if player, err := accountOf(c); err != nil || mayAdd(player, col) != nil {
		return nil, nil // no form for who may not add
	}
	f := &templates.AddPuzzleForm{Edited: c.QueryParam("edited") == "1",
		Edit: templates.CollectionForm{Name: col.Name, Description: col.Description, Author: col.Author, Source: col.Source, Licence: col.Licence}}
	if id, err := userinput.ParseID("removed", c.QueryParam("removed")); err == nil {
		f.Removed = id
	}
	for _, param := range []string{"added", "already"} {
		id, err := userinput.ParseID(param, c.QueryParam(param))
		if err != nil {
			continue
		}
		p, err := s.archive.Puzzle(c.Request().Context(), id)
		if record.KindOf(err) == record.KindNotFound {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load puzzle %d: %w", id, err)
		}
		if slices.Contains(p.Collections.List(), col.ID) {
			f.Added, f.Already = id, param == "already"
			break
		}
	}
	return f, nil
}
