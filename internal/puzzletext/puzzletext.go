// Package puzzletext is the one reader of puzzle text for every road into
// the archive (the form, the API's "puzzle", `sudoku solve`, `sudoku
// import`, the batch import and upload): the classic 81 cells (or a
// SudokuWiki link) exactly as package sudoku reads them, the archive's
// written form of a variant (variant.Parse), f-puzzles JSON (fpuzzles.Read)
// and f-puzzles and SudokuPad links (fpuzzles.ReadLink). What it returns
// is the givens, the rules, and the title and author f-puzzles carries.
//
// Errors say what and where, by the reader that failed: a
// *sudoku.ParseError (the character and its position), a
// *variant.RuleError (the rule and its cell), an *fpuzzles.Error (the
// f-puzzles constraint, entry and cell; Unsupported names a rule the
// archive does not have), or an *Error for text that is none of the forms
// (record.KindOf: the first two kinds are 422, an unreadable text 400).
package puzzletext

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/textrule"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
)

// Puzzle is a puzzle as read: its givens and rules (none for a classic
// puzzle) and what f-puzzles shows beside the grid.
type Puzzle struct {
	variant.Puzzle
	Title  string
	Author string
}

// Limits of a title and an author, in characters (textrule: bytes are at
// most four times as many).
const (
	MaxTitle  = 200
	MaxAuthor = 100
)

// MaxText bounds any text Read looks at, in bytes: the largest of the
// forms' own limits (f-puzzles JSON's), so each reader's limit speaks.
const MaxText = max(fpuzzles.MaxJSON, fpuzzles.MaxLink, variant.MaxBytes)

// Error is text that is none of the forms puzzle text may take, or a
// title or author the text rule refuses: the input cannot be read (400).
type Error struct {
	Msg string
	Err error // the text rule's *textrule.Error, or the reader's
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the error behind e.
func (e *Error) Unwrap() error { return e.Err }

// Kind says that the input cannot be read (record.Classified).
func (e *Error) Kind() record.Kind { return record.KindInvalid }

// ForUsers says that e's text is meant for users (record.ForUsers).
func (e *Error) ForUsers() bool { return true }

// Read reads puzzle text in any of its forms: a JSON object (the written
// form, or f-puzzles JSON), an f-puzzles or SudokuPad link, else the
// classic cells (sudoku.Parse, its errors unchanged).
func Read(text string) (Puzzle, error) {
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "{"):
		return readJSON([]byte(t))
	case isLink(t):
		return readLink(t)
	}
	g, err := sudoku.Parse(text)
	if err != nil {
		return Puzzle{}, err
	}
	return Puzzle{Puzzle: variant.Puzzle{Givens: g}}, nil
}

// ReadLine reads one line of line-oriented input (`sudoku solve`'s stdin,
// an import): a JSON object or a link take the whole line; else
// sudoku.ParseLine reads the classic cells and ignores what follows them.
func ReadLine(line string) (Puzzle, error) {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "{") || isLink(t) {
		return Read(t)
	}
	g, err := sudoku.ParseLine(line)
	if err != nil {
		return Puzzle{}, err
	}
	return Puzzle{Puzzle: variant.Puzzle{Givens: g}}, nil
}

// isLink is fpuzzles.IsLink behind a test of the first byte, so that a
// classic line (a digit, '.', a drawing character) costs no URL parse: an
// import or a solve reads millions of them.
func isLink(t string) bool {
	if t == "" || !('a' <= t[0] && t[0] <= 'z' || 'A' <= t[0] && t[0] <= 'Z') {
		return false
	}
	return fpuzzles.IsLink(t)
}

// FromFPuzzles reads f-puzzles JSON (the API's "fpuzzles" object).
func FromFPuzzles(data []byte) (Puzzle, error) {
	fp, err := fpuzzles.Read(data)
	if err != nil {
		return Puzzle{}, err
	}
	return checked(Puzzle{Puzzle: fp.Puzzle, Title: fp.Title, Author: fp.Author})
}

// readLink reads an f-puzzles or SudokuPad link.
func readLink(link string) (Puzzle, error) {
	fp, err := fpuzzles.ReadLink(link)
	if err != nil {
		return Puzzle{}, err
	}
	return checked(Puzzle{Puzzle: fp.Puzzle, Title: fp.Title, Author: fp.Author})
}

// msgJSON says which JSON objects are puzzles.
const msgJSON = `a JSON puzzle is the archive's written form ({"givens": "...", "rules": [...]}) or f-puzzles JSON ({"size": 9, "grid": [...]})`

// readJSON tells the written form (it has "givens") from f-puzzles JSON
// (it has "grid" or "size") by the object's top-level names.
func readJSON(data []byte) (Puzzle, error) {
	if len(data) > MaxText {
		return Puzzle{}, &Error{Msg: fmt.Sprintf("the puzzle is %d bytes, over the limit of %d", len(data), MaxText)}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return Puzzle{}, &Error{Msg: "the puzzle is not valid JSON: " + err.Error() + "; " + msgJSON, Err: err}
	}
	if _, ok := fields["givens"]; ok {
		p, err := variant.Parse(data)
		var re *variant.RuleError
		if err != nil && !errors.As(err, &re) {
			return Puzzle{}, &Error{Msg: err.Error(), Err: err} // not the written form: unreadable
		}
		return Puzzle{Puzzle: p}, err
	}
	_, grid := fields["grid"]
	_, size := fields["size"]
	if grid || size {
		return FromFPuzzles(data)
	}
	return Puzzle{}, &Error{Msg: msgJSON}
}

// checked trims the title and author and holds them to the text rule.
func checked(p Puzzle) (Puzzle, error) {
	p.Title, p.Author = strings.TrimSpace(p.Title), strings.TrimSpace(p.Author)
	if err := CheckMeta(p.Title, p.Author); err != nil {
		return Puzzle{}, err
	}
	return p, nil
}

// CheckMeta holds a title and an author to the text rule (textrule, as
// names are): one line each, MaxTitle and MaxAuthor characters.
func CheckMeta(title, author string) error {
	for _, f := range []struct {
		field, s string
		max      int
	}{{"title", title, MaxTitle}, {"author", author, MaxAuthor}} {
		if err := textrule.Check(f.field, f.s, textrule.Rule{MaxRunes: f.max}); err != nil {
			return &Error{Msg: err.Error(), Err: err}
		}
	}
	return nil
}
