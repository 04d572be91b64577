package sudoku

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// easy is the first puzzle of docs/engine.md, with its solution.
const (
	easy    = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	easySol = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

// drawn is easy as a 9-line grid with separators, zeros and spaces.
const drawn = `
5 3 0 | 0 7 0 | 0 0 0
6 0 0 | 1 9 5 | 0 0 0
0 9 8 | 0 0 0 | 0 6 0
------+-------+------
8 0 0 | 0 6 0 | 0 0 3
4 0 0 | 8 0 3 | 0 0 1
7 0 0 | 0 2 0 | 0 0 6
======+=======+======
0 6 0 | 0 0 0 | 2 8 0
0 0 0 | 4 1 9 | 0 0 5
0 0 0 | 0 8 0 | 0 7 9
`

func mustParse(t testing.TB, s string) Grid {
	t.Helper()
	g, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return g
}

func TestParse(t *testing.T) {
	zeros := strings.ReplaceAll(easy, ".", "0")
	tests := []struct {
		name string
		in   string
		want string // canonical form, or the error text
		err  *ParseError
	}{
		{name: "dots", in: easy, want: easy},
		{name: "zeros", in: zeros, want: easy},
		{name: "drawn grid", in: drawn, want: easy},
		{name: "tabs and CRLF", in: strings.ReplaceAll(strings.ReplaceAll(drawn, " ", "\t"), "\n", "\r\n"), want: easy},
		{name: "trailing newline", in: easy + "\n", want: easy},
		{name: "spaced cells", in: strings.Join(strings.Split(easy, ""), " "), want: easy},
		{name: "empty grid", in: strings.Repeat(".", 81), want: strings.Repeat(".", 81)},
		{name: "80 cells", in: easy[:80], want: "expected 81 cells, got 80", err: &ParseError{Got: 80}},
		{name: "82 cells", in: easy + "1", want: "expected 81 cells, got 82", err: &ParseError{Got: 82}},
		{name: "empty", in: "", want: "expected 81 cells, got 0", err: &ParseError{Got: 0}},
		{name: "only separators", in: "|-+=\n", want: "expected 81 cells, got 0", err: &ParseError{Got: 0}},
		{name: "letter", in: easy[:11] + "x" + easy[12:], want: "'x' at position 12 is not a cell (cells are 1-9, with 0 or . for a blank)", err: &ParseError{Pos: 12, Char: 'x'}},
		{name: "position counts characters", in: "é" + easy, want: "'é' at position 1 is not a cell (cells are 1-9, with 0 or . for a blank)", err: &ParseError{Pos: 1, Char: 'é'}},
		{name: "after a multibyte character", in: "—" + easy[:5] + "*", want: "'—' at position 1 is not a cell (cells are 1-9, with 0 or . for a blank)", err: &ParseError{Pos: 1, Char: '—'}},
		{name: "star later", in: easy[:40] + "*" + easy[40:], want: "'*' at position 41 is not a cell (cells are 1-9, with 0 or . for a blank)", err: &ParseError{Pos: 41, Char: '*'}},
		{name: "NUL", in: easy[:3] + "\x00" + easy[3:], want: "control character U+0000 at position 4", err: &ParseError{Pos: 4, Char: 0}},
		{name: "bell", in: "\a" + easy, want: "control character U+0007 at position 1", err: &ParseError{Pos: 1, Char: '\a'}},
		{name: "DEL", in: easy[:80] + "\x7f", want: "control character U+007F at position 81", err: &ParseError{Pos: 81, Char: 0x7f}},
		{name: "C1 control", in: "\u0085" + easy, want: "control character U+0085 at position 1", err: &ParseError{Pos: 1, Char: 0x85}},
		{name: "invalid UTF-8", in: easy[:9] + "\xff" + easy[9:], want: "invalid UTF-8 at position 10", err: &ParseError{Pos: 10, Char: 0xFFFD, BadUTF8: true}},
		{name: "truncated UTF-8 after multibyte", in: "é\xc3", want: "'é' at position 1 is not a cell (cells are 1-9, with 0 or . for a blank)", err: &ParseError{Pos: 1, Char: 'é'}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Parse(tc.in)
			if tc.err == nil {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if got := g.String(); got != tc.want {
					t.Errorf("Parse = %s, want %s", got, tc.want)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error = %v (%T), want *ParseError", err, err)
			}
			if diff := cmp.Diff(tc.err, pe); diff != "" {
				t.Errorf("ParseError (-want +got):\n%s", diff)
			}
			if err.Error() != tc.want {
				t.Errorf("message = %q, want %q", err.Error(), tc.want)
			}
			if g != (Grid{}) {
				t.Errorf("Parse returned a grid with its error")
			}
		})
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // canonical form, or the error text
	}{
		{"bare", easy, easy},
		{"zeros", strings.ReplaceAll(easy, ".", "0"), easy},
		{"rating and name", easy + " 7.2 name", easy},
		{"tab then rating", easy + "\t5.6", easy},
		{"CR LF", easy + "\r\n", easy},
		{"spaced cells then text", strings.Join(strings.Split(easy, ""), " ") + "  # a comment", easy},
		{"separators glued after", easy + "|", easy},
		{"82-digit run", easy + "1", "expected 81 cells, got 82"},
		{"82-digit run then text", easy + "12 rated", "expected 81 cells, got 83"},
		{"80 cells", easy[:80], "expected 81 cells, got 80"},
		{"80 cells then a rating", easy[:80] + " 7.2", "expected 81 cells, got 83"},
		{"glued letter", easy + "x", "'x' at position 82 is not a cell (cells are 1-9, with 0 or . for a blank)"},
		{"letter inside", "x" + easy, "'x' at position 1 is not a cell (cells are 1-9, with 0 or . for a blank)"},
		{"letter in the rest is ignored", easy + " xyz\x00", easy},
		{"NUL inside", easy[:5] + "\x00" + easy[5:], "control character U+0000 at position 6"},
		{"invalid UTF-8 inside", "\xc3" + easy, "invalid UTF-8 at position 1"},
		{"empty", "", "expected 81 cells, got 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseLine(tc.in)
			got := g.String()
			if err != nil {
				got = err.Error()
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Errorf("error %T, want *ParseError", err)
				}
			}
			if got != tc.want {
				t.Errorf("ParseLine(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFromRows(t *testing.T) {
	rows := func(g Grid) [][]int {
		m := make([][]int, 9)
		for r := range m {
			m[r] = make([]int, 9)
			for c := range m[r] {
				m[r][c] = int(g[r*9+c])
			}
		}
		return m
	}
	g := mustParse(t, easy)
	good := rows(g)
	short := rows(g)
	short[4] = short[4][:8]
	bad := rows(g)
	bad[2][6] = 10
	neg := rows(g)
	neg[8][0] = -1
	tests := []struct {
		name string
		in   [][]int
		want string
		err  error
	}{
		{"matrix", good, easy, nil},
		{"8 rows", good[:8], "expected 9 rows, got 8", &ShapeError{Row: -1, Got: 8}},
		{"nil", nil, "expected 9 rows, got 0", &ShapeError{Row: -1, Got: 0}},
		{"short row", short, "row 5: expected 9 cells, got 8", &ShapeError{Row: 4, Got: 8}},
		{"10", bad, "row 3, column 7: 10 is not a cell (0 for a blank, 1-9 for a digit)", &CellError{Row: 2, Column: 6, Value: 10}},
		{"negative", neg, "row 9, column 1: -1 is not a cell (0 for a blank, 1-9 for a digit)", &CellError{Row: 8, Column: 0, Value: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := FromRows(tc.in)
			got := g.String()
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("FromRows = %q, want %q", got, tc.want)
			}
			if !sameType(tc.err, err) && (tc.err != nil || err != nil) {
				t.Errorf("error = %#v, want %#v", err, tc.err)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	set := func(s string, cells map[int]uint8) Grid {
		g := mustParse(t, s)
		for c, v := range cells {
			g[c] = v
		}
		return g
	}
	empty := strings.Repeat(".", 81)
	tests := []struct {
		name string
		g    Grid
		want error
		msg  string
	}{
		{"valid", mustParse(t, easy), nil, ""},
		{"empty", mustParse(t, empty), nil, ""},
		{"row", set(empty, map[int]uint8{18: 7, 26: 7}), &ConflictError{Unit: Row, Index: 2, Digit: 7, Cells: [2]int{18, 26}}, "row 3 has two 7s"},
		{"column", set(empty, map[int]uint8{4: 2, 76: 2}), &ConflictError{Unit: Column, Index: 4, Digit: 2, Cells: [2]int{4, 76}}, "column 5 has two 2s"},
		{"box", set(empty, map[int]uint8{30: 9, 50: 9}), &ConflictError{Unit: Box, Index: 4, Digit: 9, Cells: [2]int{30, 50}}, "box 5 has two 9s"},
		{"given against the puzzle", set(easy, map[int]uint8{2: 5}), &ConflictError{Unit: Row, Index: 0, Digit: 5, Cells: [2]int{0, 2}}, "row 1 has two 5s"},
		{"rows first", set(empty, map[int]uint8{0: 1, 1: 1, 9: 1}), &ConflictError{Unit: Row, Index: 0, Digit: 1, Cells: [2]int{0, 1}}, "row 1 has two 1s"},
		{"not a digit", set(empty, map[int]uint8{40: 12}), &CellError{Row: 4, Column: 4, Value: 12}, "row 5, column 5: 12 is not a cell (0 for a blank, 1-9 for a digit)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.g.Validate()
			if diff := cmp.Diff(tc.want, err, cmp.Comparer(func(a, b error) bool {
				if a == nil || b == nil {
					return a == nil && b == nil
				}
				return sameType(a, b)
			})); diff != "" {
				t.Errorf("Validate (-want +got):\n%s", diff)
			}
			if err != nil && err.Error() != tc.msg {
				t.Errorf("message %q, want %q", err.Error(), tc.msg)
			}
			// Solve reports the same error before searching.
			if _, serr := Solve(tc.g, Options{}); (serr == nil) != (err == nil) {
				t.Errorf("Solve error %v, Validate %v", serr, err)
			}
		})
	}
}

func sameType(a, b error) bool {
	var ca, cb *ConflictError
	if errors.As(a, &ca) && errors.As(b, &cb) {
		return *ca == *cb
	}
	var ea, eb *CellError
	if errors.As(a, &ea) && errors.As(b, &eb) {
		return *ea == *eb
	}
	var sa, sb *ShapeError
	if errors.As(a, &sa) && errors.As(b, &sb) {
		return *sa == *sb
	}
	return false
}

func TestGridText(t *testing.T) {
	g := mustParse(t, drawn)
	b, err := g.MarshalText()
	if err != nil || string(b) != easy {
		t.Fatalf("MarshalText = %q, %v", b, err)
	}
	var h Grid
	if err := h.UnmarshalText([]byte(drawn)); err != nil || h != g {
		t.Fatalf("UnmarshalText = %v, %v", h, err)
	}
	if err := h.UnmarshalText([]byte("12")); err == nil {
		t.Fatal("UnmarshalText accepted 2 cells")
	}
	if g.Clues() != 30 {
		t.Errorf("Clues = %d, want 30", g.Clues())
	}
}
