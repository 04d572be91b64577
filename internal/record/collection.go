package record

import (
	"fmt"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/textrule"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// Collection is a named set of archived puzzles with its setters' credit
// and provenance (docs/api.md "Collections"). Its
// JSON form is the API's collection object.
type Collection struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Author      string `json:"author"`
	Source      string `json:"source"`
	Licence     string `json:"licence"`
	// Owner is the name of the account that made the collection, nil for
	// one made by an import or whose account is deleted; OwnerID is its
	// id (0 for none).
	Owner     *string   `json:"owner"`
	OwnerID   int64     `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	// Puzzles is how many puzzles it holds.
	Puzzles int64 `json:"puzzles"`
}

// Limits of a collection's texts, in characters.
const (
	MaxCollectionName = 100
	MaxCollectionText = 2000
)

// CollectionError is a collection request refused: its text is meant for
// users (an unknown collection, a name taken, a field too long).
type CollectionError struct {
	Msg  string
	kind Kind
}

func (e *CollectionError) Error() string { return e.Msg }

// Kind says what the refusal means (404, 409, 400, 403).
func (e *CollectionError) Kind() Kind { return e.kind }

// ForUsers marks the text as meant for users.
func (e *CollectionError) ForUsers() bool { return true }

// ErrNoCollection returns the error for an unknown collection, named by
// what was asked for (an id or a name).
func ErrNoCollection(what string) error {
	return &CollectionError{Msg: "collection " + what + " not found", kind: KindNotFound}
}

// ErrCollectionTaken returns the error for a name in use.
func ErrCollectionTaken(name string) error {
	return &CollectionError{Msg: fmt.Sprintf("a collection named %s exists already: choose another name", userinput.Echo(name)), kind: KindConflict}
}

// ErrNotOwner returns the error for adding to someone else's collection.
func ErrNotOwner(c Collection) error {
	return &CollectionError{Msg: fmt.Sprintf("collection %d is not yours: only its owner, a moderator or an admin may add puzzles to it", c.ID), kind: KindForbidden}
}

// ErrNotYours returns the error for changing or deleting someone else's
// collection.
func ErrNotYours(c Collection) error {
	return &CollectionError{Msg: fmt.Sprintf("collection %d is not yours: only its owner, a moderator or an admin may change or delete it", c.ID), kind: KindForbidden}
}

// ErrNotInCollection returns the error for taking out of c a puzzle it
// does not hold.
func ErrNotInCollection(c Collection, puzzleID int64) error {
	return &CollectionError{Msg: fmt.Sprintf("puzzle %d is not in collection %d", puzzleID, c.ID), kind: KindNotFound}
}

// Check trims c's texts and checks them: a name of 1 to MaxCollectionName
// characters, other texts up to MaxCollectionText, by the one text rule
// (textrule: no control, bidirectional or zero-width characters; line
// breaks allowed outside the name).
func (c *Collection) Check() error {
	c.Name = strings.TrimSpace(c.Name)
	if c.Name == "" {
		return &CollectionError{Msg: `"name": a collection needs a name`, kind: KindInvalid}
	}
	for _, f := range []struct {
		field string
		s     *string
		max   int
	}{{"name", &c.Name, MaxCollectionName}, {"description", &c.Description, MaxCollectionText},
		{"author", &c.Author, MaxCollectionText}, {"source", &c.Source, MaxCollectionText}, {"licence", &c.Licence, MaxCollectionText}} {
		*f.s = strings.TrimSpace(*f.s)
		if err := checkText(f.field, *f.s, f.max, f.field != "name"); err != nil {
			return err
		}
	}
	return nil
}

// checkText checks one text of a collection by the one text rule
// (textrule).
func checkText(field, s string, maxLen int, lines bool) error {
	if err := textrule.Check(field, s, textrule.Rule{MaxRunes: maxLen, Lines: lines}); err != nil {
		return &CollectionError{Msg: err.Error(), kind: KindInvalid}
	}
	return nil
}
