package sudoku

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseError says why a text is not a puzzle and where. It is either a count
// error (Pos is 0: the text holds Got cells instead of 81) or a character
// error (Pos is the 1-based position of Char in the input, counted in
// characters, an invalid UTF-8 byte counting as one).
type ParseError struct {
	Pos  int  // 1-based character position of Char; 0 for a count error
	Char rune // the offending character (utf8.RuneError for invalid UTF-8)
	Got  int  // the number of cells read, for a count error

	// BadUTF8 is set when the input is not valid UTF-8 at Pos.
	BadUTF8 bool
}

func (e *ParseError) Error() string {
	switch {
	case e.Pos == 0:
		return fmt.Sprintf("expected 81 cells, got %d", e.Got)
	case e.BadUTF8:
		return fmt.Sprintf("invalid UTF-8 at position %d", e.Pos)
	case e.Char < ' ' || e.Char == 0x7f || unicode.IsControl(e.Char):
		return fmt.Sprintf("control character U+%04X at position %d", e.Char, e.Pos)
	}
	return fmt.Sprintf("%q at position %d is not a cell (cells are 1-9, with 0 or . for a blank)", e.Char, e.Pos)
}

// ignored reports whether r may stand between cells: white space and the
// grid drawing characters | - + =.
func ignored(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', '|', '-', '+', '=':
		return true
	}
	return false
}

// space reports whether r is white space for ParseLine's trailing text.
func space(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// scanner reads cells from puzzle text.
type scanner struct {
	s   string
	i   int // byte offset
	pos int // characters consumed
}

// next returns the next cell value (0-9) skipping ignored characters, or
// ok=false at the end of the text; err is a *ParseError for a character that
// is neither a cell nor ignored.
func (sc *scanner) next() (v uint8, ok bool, err error) {
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		if c < utf8.RuneSelf {
			sc.i++
			sc.pos++
			switch {
			case c >= '1' && c <= '9':
				return c - '0', true, nil
			case c == '0' || c == '.':
				return 0, true, nil
			case ignored(rune(c)):
				continue
			}
			return 0, false, &ParseError{Pos: sc.pos, Char: rune(c)}
		}
		r, size := utf8.DecodeRuneInString(sc.s[sc.i:])
		sc.i += size
		sc.pos++
		return 0, false, &ParseError{Pos: sc.pos, Char: r, BadUTF8: r == utf8.RuneError && size == 1}
	}
	return 0, false, nil
}

// Parse reads puzzle text: 81 cells row by row, '1'-'9' for givens and '0' or
// '.' for blanks, with white space and the grid characters | - + = ignored
// anywhere, so one 81-character line and a 9-line drawn grid read the same.
// It fails with a *ParseError: "expected 81 cells, got 80", or a character
// that is no cell, "'x' at position 12" (invalid UTF-8 and control characters
// included). A SudokuWiki solver link (sudokuwiki.go) reads as the cells
// of its bd parameter; only white space may follow it. It does not check
// the givens against each other: see Validate.
func Parse(s string) (Grid, error) {
	if l, ok, err := findWikiLink(s); ok {
		if err != nil {
			return Grid{}, err
		}
		if trail := s[l.end:]; strings.TrimLeft(trail, " \t\n\r\v\f") != "" {
			at := len(s) - len(strings.TrimLeft(trail, " \t\n\r\v\f"))
			r, _ := utf8.DecodeRuneInString(s[at:])
			return Grid{}, &ParseError{Pos: utf8.RuneCountInString(s[:at]) + 1, Char: r, BadUTF8: r == utf8.RuneError}
		}
		return parseWikiLink(l)
	}
	var g Grid
	sc := scanner{s: s}
	n := 0
	for {
		v, ok, err := sc.next()
		if err != nil {
			return Grid{}, err
		}
		if !ok {
			break
		}
		if n < 81 {
			g[n] = v
		}
		n++
	}
	if n != 81 {
		return Grid{}, &ParseError{Got: n}
	}
	return g, nil
}

// ParseLine reads one line of line-oriented input (solve's stdin, a bulk
// import): the first 81 cells with Parse's rules, then anything that begins
// with white space is ignored (a rating, a name: "<81 cells> 7.2 name").
// Text that follows the 81st cell without white space is still read as cells
// up to the next white space, so an 82-digit run fails with "expected 81
// cells, got 82", and a stray letter with its position. A line that starts
// with a SudokuWiki solver link reads as the link's cells (sudokuwiki.go),
// the text after it ignored.
func ParseLine(line string) (Grid, error) {
	if l, ok, err := findWikiLink(line); ok {
		if err != nil {
			return Grid{}, err
		}
		return parseWikiLink(l)
	}
	var g Grid
	sc := scanner{s: line}
	n := 0
	for n < 81 {
		v, ok, err := sc.next()
		if err != nil {
			return Grid{}, err
		}
		if !ok {
			return Grid{}, &ParseError{Got: n}
		}
		g[n] = v
		n++
	}
	// The 81 cells are read; look at what follows them directly.
	rest := line[sc.i:]
	if rest == "" {
		return g, nil
	}
	if r, _ := utf8.DecodeRuneInString(rest); space(r) {
		return g, nil
	}
	// Glued to the grid: count the rest of the run as cells.
	for sc.i < len(line) {
		r, _ := utf8.DecodeRuneInString(line[sc.i:])
		if space(r) {
			break
		}
		if ignored(r) {
			sc.i++
			sc.pos++
			continue
		}
		if _, _, err := sc.next(); err != nil {
			return Grid{}, err
		}
		n++
	}
	if n == 81 {
		// Only grid characters (| - + =) followed the cells.
		return g, nil
	}
	return Grid{}, &ParseError{Got: n}
}

// FromRows reads a 9x9 matrix of integers, 0 for a blank. It fails with a
// *ShapeError for a matrix that is not 9x9 and a *CellError for a value
// outside 0-9. It does not check the givens against each other: see Validate.
func FromRows(rows [][]int) (Grid, error) {
	var g Grid
	if len(rows) != 9 {
		return Grid{}, &ShapeError{Row: -1, Got: len(rows)}
	}
	for r, row := range rows {
		if len(row) != 9 {
			return Grid{}, &ShapeError{Row: r, Got: len(row)}
		}
	}
	for r, row := range rows {
		for c, v := range row {
			if v < 0 || v > 9 {
				return Grid{}, &CellError{Row: r, Column: c, Value: v}
			}
			g[r*9+c] = uint8(v)
		}
	}
	return g, nil
}

// ShapeError reports a matrix (FromRows) that is not 9 rows of 9 cells.
type ShapeError struct {
	Row int // 0-8: the row with the wrong length; -1 when the row count is wrong
	Got int // rows (Row == -1) or cells in Row
}

func (e *ShapeError) Error() string {
	if e.Row < 0 {
		return fmt.Sprintf("expected 9 rows, got %d", e.Got)
	}
	return fmt.Sprintf("row %d: expected 9 cells, got %d", e.Row+1, e.Got)
}
