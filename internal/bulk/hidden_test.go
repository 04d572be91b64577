package bulk

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// hidingArchive is a fakeArchive whose moderators hid one puzzle.
type hidingArchive struct {
	*fakeArchive
	hidden moderation.HiddenSet
}

func (a hidingArchive) HiddenClasses(context.Context) (moderation.HiddenSet, error) {
	return a.hidden, nil
}

// TestImportRejectsHidden: Import and ImportText reject a line that is a
// hidden puzzle written any way, with the moderator's reason, and import
// the others.
func TestImportRejectsHidden(t *testing.T) {
	lines := puzzletest.Lines(t, puzzletest.Top1465, 3)
	g0, err := sudoku.Parse(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	hidden, err := record.Rate(g0, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The hidden puzzle written another way: its first two rows swapped.
	g := hidden.Givens
	for c := range 9 {
		g[c], g[9+c] = hidden.Givens[9+c], hidden.Givens[c]
	}
	text := lines[0] + "\n" + g.String() + "\n" + lines[2] + "\n"
	set := moderation.HiddenSet{string(hidden.Canonical.Key()): {PuzzleID: 7, Reason: "copied from a book"}}
	check := func(name string, sum Summary, rej []Rejection) {
		t.Helper()
		var h *moderation.HiddenError
		if sum.Imported != 2 || len(rej) != 1 || rej[0].Line != 2 || !errors.As(rej[0].Err, &h) || h.PuzzleID != 7 ||
			!strings.Contains(rej[0].Err.Error(), "copied from a book") {
			t.Errorf("%s: %+v, rejections %v", name, sum, rej)
		}
	}
	var rej []Rejection
	sink := hidingArchive{newFakeArchive(), set}
	sum, err := Import(context.Background(), sink, []Input{{Name: "f", Reader: strings.NewReader(text)}},
		Options{Reject: func(r Rejection) { rej = append(rej, r) }})
	if err != nil {
		t.Fatal(err)
	}
	check("Import", sum, rej)
	sum, rej, err = ImportText(context.Background(), hidingArchive{newFakeArchive(), set}, "f", []byte(text), TextOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("ImportText", sum, rej)
}
