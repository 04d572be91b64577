package web

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/puzzletext"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// msgClassicOnly answers a variant sent where only classic puzzles are
// taken yet (the setter's analysis).
const msgClassicOnly = "this takes classic puzzles only: the puzzle has variant rules"

// readPuzzle reads the puzzle a JSON request body describes: "puzzle"
// (any puzzle text: puzzletext), "grid" or "fpuzzles" (f-puzzles JSON).
// Every way a body can be wrong gets a 4xx that says what and where.
func readPuzzle(c echo.Context) (puzzletext.Puzzle, error) {
	var r puzzleRequest
	if err := readJSON(c, &r); err != nil {
		return puzzletext.Puzzle{}, err
	}
	return r.read()
}

// readGrid is readPuzzle for the routes that take classic puzzles only.
func readGrid(c echo.Context) (sudoku.Grid, error) {
	p, err := readPuzzle(c)
	if err != nil {
		return sudoku.Grid{}, err
	}
	if !p.Classic() {
		return sudoku.Grid{}, echo.NewHTTPError(http.StatusUnprocessableEntity, msgClassicOnly)
	}
	return p.Givens, nil
}

// given reports whether a raw JSON field was sent (and is not null).
func given(raw []byte) bool { return len(raw) > 0 && !bytes.Equal(raw, []byte("null")) }

// read reads the puzzle of a request body that has one: exactly one of
// its three fields.
func (r puzzleRequest) read() (puzzletext.Puzzle, error) {
	n := 0
	for _, has := range []bool{r.Puzzle != nil, given(r.Grid), given(r.FPuzzles)} {
		if has {
			n++
		}
	}
	switch {
	case n > 1:
		return puzzletext.Puzzle{}, badRequest(msgBoth)
	case r.Puzzle != nil:
		return puzzletext.Read(*r.Puzzle)
	case given(r.Grid):
		g, err := parseGrid(r.Grid)
		return puzzletext.Puzzle{Puzzle: variant.Puzzle{Givens: g}}, err
	case given(r.FPuzzles):
		if !bytes.HasPrefix(bytes.TrimSpace(r.FPuzzles), []byte("{")) {
			return puzzletext.Puzzle{}, badRequest(`"fpuzzles" must be the f-puzzles JSON object (the puzzle of an f-puzzles link, decompressed)`)
		}
		return puzzletext.FromFPuzzles(r.FPuzzles)
	}
	return puzzletext.Puzzle{}, badRequest(msgShape)
}

// variantParams reads the repeatable variant= filter: short names of
// variant.FamilyNames, or "classic" alone; sorted, each once, joined as
// record.Variants holds them.
func variantParams(v url.Values) (record.Variants, error) {
	names := slices.Clone(v["variant"])
	if len(names) == 0 {
		return "", nil
	}
	known := variant.FamilyNames()
	for _, n := range names {
		if n != "classic" && !slices.Contains(known, n) {
			return "", &userinput.InputError{Name: `"variant"`, Value: n,
				Reason: "use classic or one of " + strings.Join(known, ", ")}
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) > 1 && slices.Contains(names, "classic") {
		return "", &userinput.InputError{Name: `"variant"`, Value: "classic",
			Reason: "classic keeps the puzzles without variant rules: it cannot be combined with a variant"}
	}
	return record.Variants(strings.Join(names, ",")), nil
}
