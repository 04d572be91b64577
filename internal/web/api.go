package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// submitResponse is the answer to POST /api/puzzles: the puzzle object and
// whether those givens were archived already.
type submitResponse struct {
	record.Puzzle
	Duplicate bool `json:"duplicate"`
}

// listResponse is the answer to GET /api/puzzles. Cursors are null on the
// first and last page.
type listResponse struct {
	Puzzles    []record.Puzzle `json:"puzzles"`
	NextCursor *string         `json:"next_cursor"`
	PrevCursor *string         `json:"prev_cursor"`
	Total      int64           `json:"total"`
}

// traceResponse is the answer to GET /api/puzzles/{id}/trace.
type traceResponse struct {
	Steps     []sudoku.Step `json:"steps"`
	Truncated bool          `json:"truncated"`
}

// apiSubmit solves and measures a puzzle and archives it: 201 for new
// givens, 200 with "duplicate": true for givens archived already.
func (s *Server) apiSubmit(c echo.Context) error {
	p, err := readPuzzle(c)
	if err != nil {
		return err
	}
	// submitted_by (collections.go)
	stored, dup, err := s.arch.Submit(c.Request().Context(), archive.FromText(archive.RoadAPI, p, submitterOf(c)))
	if err != nil {
		return err
	}
	if dup {
		return c.JSON(http.StatusOK, submitResponse{Puzzle: stored, Duplicate: true})
	}
	c.Response().Header().Set(echo.HeaderLocation, "/puzzles/"+strconv.FormatInt(stored.ID, 10))
	return c.JSON(http.StatusCreated, submitResponse{Puzzle: stored})
}

// apiSolve solves and measures a puzzle without storing it.
func (s *Server) apiSolve(c echo.Context) error {
	in, err := readPuzzle(c)
	if err != nil {
		return err
	}
	p, err := s.arch.RateSubmission(c.Request().Context(), archive.FromText(archive.RoadAPI, in, 0), true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// apiList answers one page of the archive.
func (s *Server) apiList(c echo.Context) error {
	q, _, err := requestListQuery(c)
	if err != nil {
		return err
	}
	page, err := s.archive.List(c.Request().Context(), q)
	if err != nil {
		return fmt.Errorf("list puzzles: %w", err)
	}
	res := listResponse{Puzzles: page.Puzzles, Total: page.Total}
	if res.Puzzles == nil {
		res.Puzzles = []record.Puzzle{} // [] rather than null
	}
	if page.NextCursor != "" {
		res.NextCursor = &page.NextCursor
	}
	if page.PrevCursor != "" {
		res.PrevCursor = &page.PrevCursor
	}
	return c.JSON(http.StatusOK, res)
}

// apiPuzzle answers one archived puzzle.
func (s *Server) apiPuzzle(c echo.Context) error {
	if s.mod != nil && isModerator(c) {
		return s.modView(c) // hidden puzzles too (modapi.go)
	}
	p, err := s.puzzleParam(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// puzzleParam loads the puzzle named by the :id path parameter. An id that
// is not a canonical positive number ("+1", "01" are not) names no puzzle:
// 404, like an unknown one.
func (s *Server) puzzleParam(c echo.Context) (record.Puzzle, error) {
	id, err := userinput.ParseID("id", c.Param("id"))
	if err != nil {
		return record.Puzzle{}, record.ErrNotFound
	}
	p, err := s.archive.Puzzle(c.Request().Context(), id)
	if err != nil {
		return record.Puzzle{}, fmt.Errorf("load puzzle %d: %w", id, err)
	}
	return p, nil
}

// maxCursorLen bounds a cursor before it reaches the archive; the archive's
// own cursors are far shorter.
const maxCursorLen = 512

// requestListQuery reads the listing parameters of c's query string (see
// parseListQuery) and returns the parsed values too, for callers that take
// more parameters.
func requestListQuery(c echo.Context) (record.ListQuery, url.Values, error) {
	v, err := url.ParseQuery(c.Request().URL.RawQuery)
	if err != nil {
		return record.ListQuery{}, nil, badRequest("invalid query string: %v", err)
	}
	q, err := parseListQuery(v)
	if err == nil {
		err = playedParam(c, v, &q)
	}
	return q, v, err
}

// parseListQuery validates the query parameters of a listing. An empty value
// means the default; anything else unknown is a 400 that names the parameter
// and what it takes. Numbers go through the one reader of user numbers
// (userinput.ParseWhole, userinput.ParseGrade).
func parseListQuery(v url.Values) (record.ListQuery, error) {
	q := record.ListQuery{Sort: record.SortDifficulty, Desc: true, Limit: record.DefaultLimit}
	if s := v.Get("sort"); s != "" {
		q.Sort = record.Sort(s)
		if !q.Sort.Valid() {
			return q, &userinput.InputError{Name: `"sort"`, Value: s, Reason: "use one of " + record.SortNames()}
		}
	}
	switch o := v.Get("order"); o {
	case "", "desc":
	case "asc":
		q.Desc = false
	default:
		return q, &userinput.InputError{Name: `"order"`, Value: o, Reason: "use asc or desc"}
	}
	if l := v.Get("limit"); l != "" {
		n, err := userinput.ParseWhole(`"limit"`, l, 1, record.MaxLimit)
		if err != nil {
			return q, err
		}
		q.Limit = int(n)
	}
	var err error
	if q.UniqueOnly, err = boolParam(v, "unique", "use true or false"); err != nil {
		return q, err
	}
	if q.Distinct, err = boolParam(v, "distinct", "use 1 (one row per puzzle) or 0"); err != nil {
		return q, err
	}
	if q.GradeMin, q.GradeMax, err = gradeParams(v); err != nil {
		return q, err
	}
	if b := v.Get("band"); b != "" {
		q.Band = sudoku.Band(b)
		if !q.Band.Valid() {
			return q, &userinput.InputError{Name: `"band"`, Value: b, Reason: "use one of " + bandNames()}
		}
	}
	if q.Techniques, err = techniqueParams(v); err != nil {
		return q, err
	}
	if q.Variant, err = variantParams(v); err != nil {
		return q, err
	}
	q.Cursor = v.Get("cursor")
	if len(q.Cursor) > maxCursorLen {
		return q, record.ErrInvalidCursor
	}
	return q, nil
}

// boolParam reads an optional true/false parameter.
func boolParam(v url.Values, name, reason string) (bool, error) {
	s := v.Get(name)
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, &userinput.InputError{Name: strconv.Quote(name), Value: s, Reason: reason}
	}
	return b, nil
}

// gradeParams reads grade_min and grade_max, in tenths (0 for none).
func gradeParams(v url.Values) (lo, hi int64, err error) {
	for _, f := range []struct {
		name string
		to   *int64
	}{{"grade_min", &lo}, {"grade_max", &hi}} {
		if g := v.Get(f.name); g != "" {
			x, err := userinput.ParseGrade(strconv.Quote(f.name), g)
			if err != nil {
				return 0, 0, err
			}
			*f.to = userinput.Tenths(x)
		}
	}
	if lo > 0 && hi > 0 && lo > hi {
		return 0, 0, badRequest("invalid grade range: \"grade_min\" %.1f is above \"grade_max\" %.1f", float64(lo)/10, float64(hi)/10)
	}
	return lo, hi, nil
}

// bandNames lists the bands for an error message: "easy, medium, ...".
func bandNames() string {
	names := make([]string, len(sudoku.Bands))
	for i, b := range sudoku.Bands {
		names[i] = string(b.Band)
	}
	return strings.Join(names, ", ")
}

// puzzleRequest is the body of POST /api/puzzles and /api/solve: exactly
// one of the three fields (variants.go reads it).
type puzzleRequest struct {
	Puzzle   *string         `json:"puzzle"`
	Grid     json.RawMessage `json:"grid"`
	FPuzzles json.RawMessage `json:"fpuzzles"`
}

// Messages about the body's shape.
const (
	msgShape    = `the body must be a JSON object with "puzzle" (text) or "grid" (9x9 array of integers, 0 for blank), or "fpuzzles" (an f-puzzles JSON object); the text is 81 cells, a variant's written form, f-puzzles JSON, or an f-puzzles or SudokuPad link`
	msgBoth     = `give one of "puzzle", "grid" and "fpuzzles", not both`
	msgGridForm = `"grid" must be an array of 9 rows, each an array of 9 integers from 0 to 9 (0 for blank)`
)

// readJSON decodes a JSON request body into v, refusing other content
// types, a body over the limit (413), invalid UTF-8, unknown fields and
// trailing data, with errors that say what and where.
func readJSON(c echo.Context, v any) error {
	req := c.Request()
	ct := req.Header.Get(echo.HeaderContentType)
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != echo.MIMEApplicationJSON {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType,
			fmt.Sprintf("send the body as application/json (Content-Type was %s)", userinput.Echo(ct)))
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) { // bodyLimit's bound
			return tooLarge(tooBig.Limit)
		}
		return badRequest("could not read the request body: %v", err)
	}
	if !utf8.Valid(body) {
		return badRequest("the body is not valid UTF-8 (byte %d)", invalidUTF8At(body)+1)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		shape := msgShape
		if sh, ok := v.(shaped); ok {
			shape = sh.shape()
		}
		return jsonError(err, shape)
	}
	if rest := bytes.TrimLeft(body[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return badRequest("unexpected data after the JSON object at byte %d", len(body)-len(rest)+1)
	}
	return nil
}

// parseGrid reads the "grid" form, naming the row and column of a bad cell.
func parseGrid(raw json.RawMessage) (sudoku.Grid, error) {
	var rows []json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return sudoku.Grid{}, badRequest(msgGridForm)
	}
	if len(rows) != 9 {
		return sudoku.Grid{}, badRequest(`"grid": expected 9 rows, got %d`, len(rows))
	}
	cells := make([][]int, 9)
	for r, rawRow := range rows {
		var row []json.RawMessage
		if err := json.Unmarshal(rawRow, &row); err != nil {
			return sudoku.Grid{}, badRequest(`"grid" row %d is not an array: %s`, r+1, msgGridForm)
		}
		if len(row) != 9 {
			return sudoku.Grid{}, badRequest(`"grid" row %d: expected 9 cells, got %d`, r+1, len(row))
		}
		cells[r] = make([]int, 9)
		for col, rawCell := range row {
			v, err := strconv.Atoi(string(rawCell))
			if err != nil || v < 0 || v > 9 {
				return sudoku.Grid{}, badRequest(`"grid" row %d, column %d: %s is not a cell (use an integer from 0 to 9, 0 for blank)`,
					r+1, col+1, truncate(string(rawCell), 20))
			}
			cells[r][col] = v
		}
	}
	g, err := sudoku.FromRows(cells)
	if err != nil {
		return sudoku.Grid{}, badRequest(`"grid": %v`, err)
	}
	return g, nil
}

// jsonError turns a decoding error into a 400 that says what and where.
// shaped is a request body that says what its JSON looks like, for the
// messages about a body of another shape; the others are the submit
// endpoint's (msgShape).
type shaped interface{ shape() string }

func jsonError(err error, msgShape string) error {
	var (
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
	)
	switch {
	case errors.Is(err, io.EOF):
		return badRequest("the body is empty: %s", msgShape)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("the body ends in the middle of the JSON")
	case errors.As(err, &syntax):
		return badRequest("invalid JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		if typ.Field != "" && typ.Type != nil {
			return badRequest(`%q must be %s, not %s`, typ.Field, jsonKind(typ.Type.Kind()), typ.Value)
		}
		return badRequest("%s (found %s)", msgShape, typ.Value)
	default:
		// DisallowUnknownFields: `json: unknown field "x"`.
		return badRequest("%s; %s", msgShape, err.Error())
	}
}

// jsonKind names the JSON a Go kind is read from.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a number"
	}
	return "of another type"
}

// badRequest is a 400 with a formatted message.
func badRequest(format string, args ...any) error {
	return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf(format, args...))
}

// invalidUTF8At returns the offset of the first byte of b that is not part
// of a valid UTF-8 sequence.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// truncate shortens s to at most n runes for an error message.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
