package sudoku

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSudokuWikiLink(t *testing.T) {
	want, err := Parse(easy)
	if err != nil {
		t.Fatal(err)
	}
	bd := strings.ReplaceAll(want.String(), ".", "0")
	for _, tc := range []struct{ name, text string }{
		{"https www", "https://www.sudokuwiki.org/sudoku.htm?bd=" + bd},
		{"http", "http://www.sudokuwiki.org/sudoku.htm?bd=" + bd},
		{"no scheme", "www.sudokuwiki.org/sudoku.htm?bd=" + bd},
		{"bare host", "sudokuwiki.org/sudoku.htm?bd=" + bd},
		{"case", "HTTPS://WWW.SudokuWiki.org/Sudoku.htm?BD=" + bd},
		{"params around", "https://www.sudokuwiki.org/sudoku.htm?n=3&bd=" + bd + "&x=1#top"},
		{"other page", "https://www.sudokuwiki.org/Killer_Sudoku?bd=" + bd},
		{"dots", "https://www.sudokuwiki.org/sudoku.htm?bd=" + want.String()},
		{"white space", "  https://www.sudokuwiki.org/sudoku.htm?bd=" + bd + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Parse(tc.text)
			if err != nil || g != want {
				t.Fatalf("Parse = %v, %v; want %v", g, err, want)
			}
			g, err = ParseLine(tc.text + " 7.2 a name")
			if err != nil || g != want {
				t.Fatalf("ParseLine = %v, %v; want %v", g, err, want)
			}
		})
	}
	if got := SudokuWikiURL(want); got != "https://www.sudokuwiki.org/sudoku.htm?bd="+bd {
		t.Fatalf("SudokuWikiURL = %q", got)
	}
	if g, err := Parse(SudokuWikiURL(want)); err != nil || g != want {
		t.Fatalf("Parse(SudokuWikiURL) = %v, %v", g, err)
	}
}

func TestParseSudokuWikiLinkErrors(t *testing.T) {
	const link = "https://www.sudokuwiki.org/sudoku.htm?bd="
	bd := strings.ReplaceAll(easy, ".", "0")
	for _, tc := range []struct{ name, text, want string }{
		{"no bd", "https://www.sudokuwiki.org/sudoku.htm?n=1", "the SudokuWiki link at position 1 has no bd=<81 cells> parameter"},
		{"no query", " sudokuwiki.org/sudoku.htm", "the SudokuWiki link at position 2 has no bd=<81 cells> parameter"},
		{"short", link + bd[:80], "expected 81 cells, got 80"},
		{"bad cell", link + "x" + bd[1:], posError('x', len(link)+1)},
		{"text after", link + bd + " hello", posError('h', len(link)+81+2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.text)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Parse error = %v; want %q", err, tc.want)
			}
		})
	}
	var le *LinkError
	if _, err := ParseLine("sudokuwiki.org/x 1 2"); !errors.As(err, &le) {
		t.Fatalf("ParseLine of a link without bd = %v, want a *LinkError", err)
	}
}

func posError(c rune, pos int) string {
	return (&ParseError{Pos: pos, Char: c}).Error()
}

// FuzzSudokuWikiLink: a link never panics the reader, and a link accepted
// reads the same as its bd parameter alone.
func FuzzSudokuWikiLink(f *testing.F) {
	for _, s := range []string{
		"https://www.sudokuwiki.org/sudoku.htm?bd=" + strings.ReplaceAll(easy, ".", "0"),
		"sudokuwiki.org/?bd=",
		"http://sudokuwiki.org/sudoku.htm?a=&bd=1&bd=2",
		"www.sudokuwiki.org/sudoku.htm?bd=" + easy + " trailing",
		"https://www.sudokuwiki.org/é?bd=\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (Grid, error){Parse, ParseLine} {
			g, err := parse(s)
			if err != nil {
				if g != (Grid{}) {
					t.Fatal("grid returned with an error")
				}
				continue
			}
			if l, ok, _ := findWikiLink(s); ok {
				h, err := Parse(l.bd)
				if err != nil || h != g {
					t.Fatalf("link %q read %v, its bd %v, %v", s, g, h, err)
				}
			}
		}
	})
}
