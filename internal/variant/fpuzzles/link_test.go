package fpuzzles

import (
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"
)

// kropkiLZ is testdata/read/kropki.json compressed by the reference
// LZ-string (compressToBase64, lz-string 1.5.0 under node).
const kropkiLZ = "N4IgzglgXgpiBcACAnAGkSA5gJwgEwUQG0jgBfdcyixK2muxhsgXXVOeq/u6ereJ8ewoaNbsxvTiOYCOUhTKlzJStUxXTV28YK37FGiQfUnyLASDwQAZjZjYYAOwDGcJKRBuANt7CEiEAAlAEYAYRCQdGDwgCYQFgYvGF9/D2DYiKiMIIBmLMsANwBDbwBXdwxI3RBsYoAXCAB7ANAfPwDggFYwruzusIA2BOiS8sqQECT2tOJg5DCADn6gheQRjDGKwhB4mqcYTAaIQsrAusaW6Os7B2c3BLIgA"

// TestReadLinkForms reads the same puzzle from every link form.
func TestReadLinkForms(t *testing.T) {
	b, err := os.ReadFile("testdata/read/kropki.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	esc := url.QueryEscape(kropkiLZ)
	for _, link := range []string{
		"https://www.f-puzzles.com/?load=" + kropkiLZ,
		"https://f-puzzles.com/?load=" + esc,
		"http://www.f-puzzles.com/?x=1&load=" + kropkiLZ + "&y=2",
		"https://sudokupad.app/fpuzzles" + kropkiLZ,
		"https://beta.sudokupad.app/fpuzzles" + kropkiLZ,
		"https://sudokupad.app/?puzzleid=fpuzzles" + kropkiLZ,
		"https://sudokupad.app/?puzzleid=fpuzzles" + esc,
		"https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles" + kropkiLZ,
		"https://crackingthecryptic.com/sudoku/fpuzzles" + kropkiLZ,
		"  https://sudokupad.app/fpuzzles" + kropkiLZ + "?setting-nogrid=1  ",
		"www.f-puzzles.com/?load=" + kropkiLZ,
		"sudokupad.app/fpuzzles" + kropkiLZ,
		"HTTPS://SudokuPad.app/fpuzzles" + kropkiLZ,
	} {
		if !IsLink(link) {
			t.Errorf("%.80s: IsLink false", link)
		}
		got, err := ReadLink(link)
		if err != nil || !same(got.Puzzle, want.Puzzle) {
			t.Errorf("%.80s: %v", link, err)
		}
	}
}

// TestReadLinkPlus: a '+' of base64 survives being escaped, and being
// turned into a space by a query.
func TestReadLinkPlus(t *testing.T) {
	for name, p := range testPuzzles(t) {
		l, err := Link(Puzzle{Puzzle: p})
		if err != nil {
			t.Fatal(err)
		}
		data := strings.TrimPrefix(l, FPuzzlesPrefix)
		if !strings.Contains(data, "+") {
			continue
		}
		for _, link := range []string{
			FPuzzlesPrefix + strings.ReplaceAll(data, "+", " "),
			FPuzzlesPrefix + strings.ReplaceAll(data, "+", "%2B"),
			SudokuPadPrefix + data,
		} {
			if got, err := ReadLink(link); err != nil || !same(got.Puzzle, p) {
				t.Errorf("%s: %.60s: %v", name, link, err)
			}
		}
		return
	}
	t.Fatal("no test puzzle's link holds a '+'")
}

// TestReadLinkErrors: links that carry no f-puzzles puzzle.
func TestReadLinkErrors(t *testing.T) {
	for _, tc := range []struct {
		link        string
		unsupported bool
	}{
		{"not a link", false},
		{"https://example.com/?load=" + kropkiLZ, false},
		{"https://www.f-puzzles.com/?id=yxnpswht", false},
		{"https://sudokupad.app/scl123abc", true},
		{"https://sudokupad.app/?puzzleid=ctc-abc", true},
		{"https://www.f-puzzles.com/?load=" + kropkiLZ[:40], false},
		{"https://www.f-puzzles.com/?load=" + kropkiLZ[:40] + "!" + kropkiLZ[41:], false},
		{"https://sudokupad.app/fpuzzles" + CompressToBase64("{\"size\":9}"), false},
		{FPuzzlesPrefix + strings.Repeat("A", MaxLink), false},
	} {
		_, err := ReadLink(tc.link)
		var e *Error
		if !errors.As(err, &e) || e.Unsupported != tc.unsupported {
			t.Errorf("%.60s: %v (unsupported %v)", tc.link, err, tc.unsupported)
		}
	}
}

// TestIsLink: only f-puzzles' and SudokuPad's hosts are links to read;
// a grid, JSON or another site's link is not.
func TestIsLink(t *testing.T) {
	for _, s := range []string{
		"", "1234", strings.Repeat(".", 81), `{"size":9}`, "https://example.com/?load=x",
		"https://www.sudokuwiki.org/sudoku.htm?bd=1", "f-puzzles.com", "sudokupad.app.evil.com/fpuzzlesx",
	} {
		if IsLink(s) {
			t.Errorf("%q: IsLink true", s)
		}
	}
}
