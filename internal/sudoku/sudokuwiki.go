package sudoku

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// SudokuWiki's solver takes a puzzle in its link
// (https://www.sudokuwiki.org/sudoku.htm?bd=<81 cells>), and people paste
// those links where a puzzle is asked for. Parse and ParseLine read such a
// link as the 81 cells of its bd parameter: with or without the scheme or
// "www.", in any case, with other parameters before or after bd.

// SudokuWikiURL is the link to SudokuWiki's solver with g filled in
// (blanks as 0, as its links write them).
func SudokuWikiURL(g Grid) string {
	var b strings.Builder
	b.WriteString("https://www.sudokuwiki.org/sudoku.htm?bd=")
	for _, v := range g {
		b.WriteByte('0' + v)
	}
	return b.String()
}

// LinkError says why a SudokuWiki link holds no puzzle.
type LinkError struct {
	Pos int // 1-based character position of the link in the text
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("the SudokuWiki link at position %d has no bd=<81 cells> parameter", e.Pos)
}

// wikiLink is a SudokuWiki link found at the start of a text.
type wikiLink struct {
	bd    string // the bd parameter's value
	bdAt  int    // its byte offset in the text
	bdPos int    // the characters before it
	end   int    // the byte offset just past the link
}

// findWikiLink looks for a SudokuWiki link at the start of s, after white
// space. ok is false when s does not start with one; err is a *LinkError
// for a link without a bd parameter.
func findWikiLink(s string) (l wikiLink, ok bool, err error) {
	start := 0
	for start < len(s) && space(rune(s[start])) {
		start++
	}
	rest := s[start:]
	lower := strings.ToLower(rest[:min(len(rest), 40)])
	skip := 0
	for _, p := range []string{"https://", "http://"} {
		if strings.HasPrefix(lower, p) {
			skip = len(p)
			break
		}
	}
	if strings.HasPrefix(lower[skip:], "www.") {
		skip += len("www.")
	}
	if !strings.HasPrefix(lower[skip:], "sudokuwiki.org/") {
		return wikiLink{}, false, nil
	}
	end := start
	for end < len(s) && !space(rune(s[end])) {
		end++
	}
	link := s[start:end]
	q := strings.IndexByte(link, '?')
	if q >= 0 {
		at := q + 1
		for _, param := range strings.FieldsFunc(link[q+1:], func(r rune) bool { return r == '&' || r == '#' }) {
			i := strings.Index(link[at:], param) + at
			at = i + len(param)
			key, value, found := strings.Cut(param, "=")
			if !found || !strings.EqualFold(key, "bd") {
				continue
			}
			bdAt := start + i + len("bd=")
			return wikiLink{bd: value, bdAt: bdAt, bdPos: utf8.RuneCountInString(s[:bdAt]), end: end}, true, nil
		}
	}
	return wikiLink{}, true, &LinkError{Pos: utf8.RuneCountInString(s[:start]) + 1}
}

// parseWikiLink reads the cells of l: its bd value as Parse reads a text,
// with an error's position counted in the whole text.
func parseWikiLink(l wikiLink) (Grid, error) {
	g, err := Parse(l.bd)
	if pe, ok := err.(*ParseError); ok && pe.Pos > 0 {
		e := *pe
		e.Pos += l.bdPos
		return Grid{}, &e
	}
	return g, err
}
