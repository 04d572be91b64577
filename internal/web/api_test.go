package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// submitted is the part of a submit answer the tests look at.
type submitted struct {
	ID          int64  `json:"id"`
	Puzzle      string `json:"puzzle"`
	Solution    string `json:"solution"`
	Clues       int    `json:"clues"`
	Solutions   int    `json:"solutions"`
	Unique      bool   `json:"unique"`
	Submissions int64  `json:"submissions"`
	SubmittedAt string `json:"submitted_at"`
	Duplicate   *bool  `json:"duplicate"`
}

func TestSubmitNewThenDuplicate(t *testing.T) {
	s, f := newTestServer(t, Config{})

	rec := post(t, s, "/api/puzzles", puzzleBody(easy))
	if rec.Code != http.StatusCreated {
		t.Fatalf("first submit: status %d, body %s", rec.Code, rec.Body)
	}
	if got := rec.Header().Get("Location"); got != "/puzzles/1" {
		t.Errorf("Location = %q, want /puzzles/1", got)
	}
	got := decode[submitted](t, rec)
	if got.Duplicate == nil || *got.Duplicate {
		t.Errorf("duplicate = %v, want false", got.Duplicate)
	}
	got.Duplicate, got.SubmittedAt = nil, ""
	want := submitted{ID: 1, Puzzle: easy, Solution: easySolution, Clues: 32, Solutions: 1, Unique: true, Submissions: 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("first submit (-want +got):\n%s", d)
	}

	// The same givens again, as a 9-line drawing with separators: archived
	// once, counted twice.
	var drawn strings.Builder
	for r := range 9 {
		if r == 3 || r == 6 {
			drawn.WriteString("------+-------+------\n")
		}
		for c := range 9 {
			if c == 3 || c == 6 {
				drawn.WriteString("| ")
			}
			drawn.WriteString(strings.ReplaceAll(easy[r*9+c:r*9+c+1], ".", "0") + " ")
		}
		drawn.WriteString("\n")
	}
	rec = post(t, s, "/api/puzzles", puzzleBody(drawn.String()))
	if rec.Code != http.StatusOK {
		t.Fatalf("duplicate submit: status %d, body %s", rec.Code, rec.Body)
	}
	if loc := rec.Header().Get("Location"); loc != "" {
		t.Errorf("duplicate has Location %q", loc)
	}
	got = decode[submitted](t, rec)
	if got.Duplicate == nil || !*got.Duplicate || got.ID != 1 || got.Submissions != 2 {
		t.Errorf("duplicate answer: id %d, submissions %d, duplicate %v; want 1, 2, true", got.ID, got.Submissions, got.Duplicate)
	}
	if len(f.puzzles) != 1 {
		t.Errorf("archive holds %d puzzles, want 1", len(f.puzzles))
	}
}

func TestSubmitGrid(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rows := make([]string, 9)
	for r := range 9 {
		cells := make([]string, 9)
		for c := range 9 {
			cells[c] = strings.ReplaceAll(easy[r*9+c:r*9+c+1], ".", "0")
		}
		rows[r] = "[" + strings.Join(cells, ",") + "]"
	}
	rec := post(t, s, "/api/puzzles", `{"grid": [`+strings.Join(rows, ",")+`]}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	if got := decode[submitted](t, rec); got.Puzzle != easy || got.Solution != easySolution {
		t.Errorf("stored %s / %s, want %s / %s", got.Puzzle, got.Solution, easy, easySolution)
	}
}

func TestSubmitManySolutions(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := post(t, s, "/api/puzzles", puzzleBody("1"+strings.Repeat(".", 80)))
	if rec.Code != http.StatusCreated {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	if got := decode[submitted](t, rec); got.Unique || got.Solutions != 2 {
		t.Errorf("unique %v, solutions %d; want false, 2", got.Unique, got.Solutions)
	}
}

// gridJSON is a 9x9 grid body with every cell 0 except those in set.
func gridJSON(set map[[2]int]string) string {
	var b strings.Builder
	b.WriteString(`{"grid": [`)
	for r := range 9 {
		if r > 0 {
			b.WriteString(",")
		}
		b.WriteString("[")
		for c := range 9 {
			if c > 0 {
				b.WriteString(",")
			}
			if v, ok := set[[2]int{r, c}]; ok {
				b.WriteString(v)
			} else {
				b.WriteString("0")
			}
		}
		b.WriteString("]")
	}
	b.WriteString("]}")
	return b.String()
}

// TestBadPuzzleInput sends every kind of bad body to both endpoints that
// read a puzzle: each gets its status and a message naming what and where,
// and nothing is stored.
func TestBadPuzzleInput(t *testing.T) {
	eightRows := `{"grid": [` + strings.Repeat(`[0,0,0,0,0,0,0,0,0],`, 7) + `[0,0,0,0,0,0,0,0,0]]}`
	tests := []struct {
		name        string
		contentType string
		body        string
		status      int
		msg         string // the error must contain this
		position    int
		cells       []int
	}{
		{name: "80 cells", body: puzzleBody(easy[:80]), status: 400, msg: "expected 81 cells, got 80"},
		{name: "82 cells", body: puzzleBody(easy + "1"), status: 400, msg: "expected 81 cells, got 82"},
		{name: "letter", body: puzzleBody(easy[:11] + "x" + easy[12:]), status: 400, msg: "'x' at position 12", position: 12},
		{name: "NUL escaped in JSON", body: `{"puzzle": "` + easy[:4] + `\u0000` + easy[5:] + `"}`, status: 400, msg: "position 5", position: 5},
		{name: "control character", body: `{"puzzle": "` + easy[:2] + `\u0007` + easy[3:] + `"}`, status: 400, msg: "position 3", position: 3},
		{name: "raw NUL byte", body: "{\"puzzle\": \"" + easy[:4] + "\x00" + easy[5:] + "\"}", status: 400, msg: "invalid JSON"},
		{name: "invalid UTF-8", body: "{\"puzzle\": \"" + easy[:9] + "\xff" + easy[10:] + "\"}", status: 400, msg: "not valid UTF-8 (byte 22)"},
		{name: "script", body: puzzleBody("<script>alert(1)</script>"), status: 400, msg: "'<' at position 1", position: 1},
		{name: "conflict", body: puzzleBody(conflict), status: 422, msg: "row 1 has two 5s", cells: []int{0, 4}},
		{name: "conflict in grid", body: gridJSON(map[[2]int]string{{2, 0}: "7", {2, 8}: "7"}), status: 422, msg: "row 3 has two 7s", cells: []int{18, 26}},
		{name: "no solution", body: puzzleBody(noSolution), status: 422, msg: "no solution"},
		{name: "both puzzle and grid", body: `{"puzzle": "` + easy + `", "grid": [[0]]}`, status: 400, msg: "not both"},
		{name: "neither", body: `{}`, status: 400, msg: `"puzzle" (text) or "grid"`},
		{name: "null body", body: `null`, status: 400, msg: `"puzzle" (text) or "grid"`},
		{name: "array body", body: `[1,2]`, status: 400, msg: "JSON object"},
		{name: "puzzle not a string", body: `{"puzzle": 5}`, status: 400, msg: `"puzzle" must be a string`},
		{name: "unknown field", body: `{"puzzle": "` + easy + `", "name": "x"}`, status: 400, msg: `unknown field "name"`},
		{name: "grid of 8 rows", body: eightRows, status: 400, msg: "expected 9 rows, got 8"},
		{name: "grid row of 10", body: `{"grid": [[0,0,0,0,0,0,0,0,0,0]` + strings.Repeat(`,[0,0,0,0,0,0,0,0,0]`, 8) + `]}`, status: 400, msg: "row 1: expected 9 cells, got 10"},
		{name: "grid cell 10", body: gridJSON(map[[2]int]string{{1, 2}: "10"}), status: 400, msg: "row 2, column 3: 10 is not a cell"},
		{name: "grid cell negative", body: gridJSON(map[[2]int]string{{0, 0}: "-1"}), status: 400, msg: "row 1, column 1: -1"},
		{name: "grid cell fraction", body: gridJSON(map[[2]int]string{{4, 4}: "1.5"}), status: 400, msg: "row 5, column 5: 1.5"},
		{name: "grid cell string", body: gridJSON(map[[2]int]string{{8, 8}: `"5"`}), status: 400, msg: `row 9, column 9: "5"`},
		{name: "grid not an array", body: `{"grid": "123"}`, status: 400, msg: `"grid" must be an array of 9 rows`},
		{name: "grid row not an array", body: `{"grid": [1,2,3,4,5,6,7,8,9]}`, status: 400, msg: "row 1 is not an array"},
		{name: "invalid JSON", body: `{"puzzle": `, status: 400, msg: "ends in the middle"},
		{name: "syntax error", body: `{"puzzle" "x"}`, status: 400, msg: "invalid JSON at byte"},
		{name: "trailing data", body: puzzleBody(easy) + `{}`, status: 400, msg: "after the JSON object"},
		{name: "text/plain", contentType: "text/plain", body: easy, status: 415, msg: "application/json"},
		{name: "form", contentType: "application/x-www-form-urlencoded", body: "puzzle=" + easy, status: 415, msg: "application/json"},
		{name: "json with charset", contentType: "application/json; charset=utf-8", body: puzzleBody(conflict), status: 422, msg: "row 1 has two 5s", cells: []int{0, 4}},
		{name: "too large", body: `{"puzzle": "` + strings.Repeat(" ", BodyLimit) + easy + `"}`, status: 413, msg: "limit is 64 KiB"},
	}
	for _, path := range []string{"/api/puzzles", "/api/solve"} {
		for _, tc := range tests {
			t.Run(path+"/"+tc.name, func(t *testing.T) {
				s, f := newTestServer(t, Config{})
				rec := do(t, s, request{method: http.MethodPost, path: path, body: tc.body, contentType: tc.contentType})
				if rec.Code != tc.status {
					t.Fatalf("status %d, want %d; body %s", rec.Code, tc.status, rec.Body)
				}
				got := decode[apiErr](t, rec)
				if !strings.Contains(got.Error, tc.msg) {
					t.Errorf("error %q does not contain %q", got.Error, tc.msg)
				}
				if got.Position != tc.position {
					t.Errorf("position %d, want %d", got.Position, tc.position)
				}
				if d := cmp.Diff(tc.cells, got.Cells); d != "" {
					t.Errorf("cells (-want +got):\n%s", d)
				}
				if len(f.puzzles) != 0 {
					t.Errorf("bad input stored %d puzzles", len(f.puzzles))
				}
			})
		}
	}
}

// TestBodyLimitWithoutLength sends an oversize body of unknown length
// (chunked), which only the reading side of the limit can catch.
func TestBodyLimitWithoutLength(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	req := httptestRequest(http.MethodPost, "/api/puzzles", `{"puzzle": "`+strings.Repeat(" ", 2*BodyLimit)+easy+`"}`)
	req.ContentLength = -1
	rec := serve(s, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413; body %s", rec.Code, rec.Body)
	}
}

func TestSolveStoresNothing(t *testing.T) {
	s, f := newTestServer(t, Config{})
	rec := post(t, s, "/api/solve", puzzleBody(easy))
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	got := decode[map[string]any](t, rec)
	if got["solution"] != easySolution || got["unique"] != true {
		t.Errorf("solve answered %v", got)
	}
	for _, field := range []string{"id", "submitted_at", "submissions", "duplicate"} {
		if _, ok := got[field]; ok {
			t.Errorf("solve result has %q, which only archived puzzles have", field)
		}
	}
	for _, field := range []string{"puzzle", "clues", "solutions", "backtracks", "guesses", "solve_ns"} {
		if _, ok := got[field]; !ok {
			t.Errorf("solve result lacks %q", field)
		}
	}
	if len(f.puzzles) != 0 {
		t.Errorf("solve stored %d puzzles", len(f.puzzles))
	}
}

// listed is a listing as a client sees it.
type listed struct {
	Puzzles    []submitted `json:"puzzles"`
	NextCursor *string     `json:"next_cursor"`
	PrevCursor *string     `json:"prev_cursor"`
	Total      int64       `json:"total"`
}

func TestListPagesByCursor(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	const n = 7
	for i := range n {
		if rec := post(t, s, "/api/puzzles", puzzleBody(relabel(easy, i))); rec.Code != http.StatusCreated {
			t.Fatalf("seed %d: status %d, body %s", i, rec.Code, rec.Body)
		}
	}
	// The one puzzle that is not unique: a single given (an empty grid is
	// refused: no givens).
	if rec := post(t, s, "/api/puzzles", puzzleBody("1"+strings.Repeat(".", 80))); rec.Code != http.StatusCreated {
		t.Fatalf("seed the non-unique puzzle: status %d, body %s", rec.Code, rec.Body)
	}

	for _, tc := range []struct {
		query string
		want  []int64 // ids in order, all pages together
	}{
		{"sort=submitted&order=asc&limit=3", []int64{1, 2, 3, 4, 5, 6, 7, 8}},
		{"sort=submitted&limit=3", []int64{8, 7, 6, 5, 4, 3, 2, 1}},
		{"sort=submitted&order=desc&limit=3&unique=true", []int64{7, 6, 5, 4, 3, 2, 1}},
		{"sort=clues&order=asc&limit=100", []int64{8, 1, 2, 3, 4, 5, 6, 7}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			var ids []int64
			path := "/api/puzzles?" + tc.query
			for pages := 0; ; pages++ {
				rec := get(t, s, path)
				if rec.Code != http.StatusOK {
					t.Fatalf("GET %s: status %d, body %s", path, rec.Code, rec.Body)
				}
				page := decode[listed](t, rec)
				if page.Total != int64(len(tc.want)) {
					t.Errorf("total %d, want %d", page.Total, len(tc.want))
				}
				if (pages == 0) != (page.PrevCursor == nil) {
					t.Errorf("page %d: prev_cursor %v", pages, page.PrevCursor)
				}
				for _, p := range page.Puzzles {
					ids = append(ids, p.ID)
				}
				if page.NextCursor == nil {
					break
				}
				path = "/api/puzzles?" + tc.query + "&cursor=" + *page.NextCursor
			}
			if d := cmp.Diff(tc.want, ids); d != "" {
				t.Errorf("ids (-want +got):\n%s", d)
			}
		})
	}
}

func TestListEmptyArchive(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := get(t, s, "/api/puzzles")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	want := `{"puzzles":[],"next_cursor":null,"prev_cursor":null,"total":0}`
	if got := strings.TrimSpace(rec.Body.String()); got != want {
		t.Errorf("body %s, want %s", got, want)
	}
}

func TestListDefaultsAndEmptyValues(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for i := range 25 {
		post(t, s, "/api/puzzles", puzzleBody(relabel(easy, i)))
	}
	for _, path := range []string{"/api/puzzles", "/api/puzzles?sort=&order=&limit=&cursor=", "/api/puzzles?sort=difficulty&order=desc&limit=20"} {
		page := decode[listed](t, get(t, s, path))
		if len(page.Puzzles) != record.DefaultLimit || page.NextCursor == nil || page.Total != 25 {
			t.Errorf("%s: %d puzzles, next %v, total %d; want 20, a cursor, 25", path, len(page.Puzzles), page.NextCursor, page.Total)
		}
	}
}

func TestListRejectsBadParameters(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, tc := range []struct{ query, msg string }{
		{"sort=hardest", `invalid "sort" "hardest": use one of difficulty, backtracks, solve_time, submitted, clues`},
		{"sort=DIFFICULTY", `invalid "sort"`},
		{"sort=id;DROP TABLE puzzles", `invalid query string`},
		{"sort=id%20DESC%3B%20DROP%20TABLE%20puzzles", `invalid "sort" "id DESC; DROP TABLE puzzles"`},
		{"order=up", `invalid "order" "up": use asc or desc`},
		{"limit=0", `invalid "limit" "0": use a whole number from 1 to 100`},
		{"limit=101", `invalid "limit" "101"`},
		{"limit=-5", `invalid "limit" "-5"`},
		{"limit=ten", `invalid "limit" "ten"`},
		{"limit=2.5", `invalid "limit" "2.5"`},
		{"limit=99999999999999999999", `invalid "limit"`},
		{"cursor=not-a-cursor", `invalid "cursor"`},
		{"cursor=" + strings.Repeat("A", maxCursorLen+1), `invalid "cursor"`},
		{"unique=maybe", `invalid "unique" "maybe": use true or false`},
	} {
		t.Run(tc.query, func(t *testing.T) {
			rec := get(t, s, "/api/puzzles?"+strings.ReplaceAll(tc.query, " ", "%20"))
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("status %d, want 400; body %s", rec.Code, rec.Body)
			}
			if got := decode[apiErr](t, rec).Error; !strings.Contains(got, tc.msg) {
				t.Errorf("error %q does not contain %q", got, tc.msg)
			}
		})
	}
}

func TestGetPuzzle(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	post(t, s, "/api/puzzles", puzzleBody(easy))

	rec := get(t, s, "/api/puzzles/1")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	got := decode[map[string]any](t, rec)
	for _, field := range []string{"id", "puzzle", "solution", "clues", "solutions", "unique", "backtracks", "guesses", "solve_ns", "submitted_at", "submissions"} {
		if _, ok := got[field]; !ok {
			t.Errorf("puzzle object lacks %q: %v", field, got)
		}
	}
	if _, ok := got["duplicate"]; ok {
		t.Errorf("GET answer has \"duplicate\"")
	}

	for _, path := range []string{"/api/puzzles/2", "/api/puzzles/0", "/api/puzzles/-1", "/api/puzzles/abc", "/api/puzzles/1.0",
		"/api/puzzles/99999999999999999999", "/api/puzzles/2/trace", "/api/puzzles/x/trace", "/api/nothing", "/api/puzzles/1/other"} {
		t.Run(path, func(t *testing.T) {
			rec := get(t, s, path)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("status %d, want 404; body %s", rec.Code, rec.Body)
			}
			if msg := decode[apiErr](t, rec).Error; msg == "" {
				t.Error("no error message")
			}
		})
	}
}

func TestMethodNotAllowed(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := do(t, s, request{method: http.MethodDelete, path: "/api/puzzles"})
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("status %d, want 405; body %s", rec.Code, rec.Body)
	}
	if msg := decode[apiErr](t, rec).Error; msg != "method not allowed" {
		t.Errorf("error %q", msg)
	}
}

func TestTrace(t *testing.T) {
	// The engine's Trace is being built in parallel (issue 2): until it is,
	// the interim one fails and there is nothing to check the handler against.
	g, _ := sudoku.Parse(easy)
	wantSteps, wantTruncated, _, err := sudoku.Trace(g, 0, sudoku.Options{})
	if err != nil {
		t.Skipf("sudoku.Trace is not built yet: %v", err)
	}
	s, _ := newTestServer(t, Config{})
	post(t, s, "/api/puzzles", puzzleBody(easy))
	rec := get(t, s, "/api/puzzles/1/trace")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	type step struct {
		Kind  string `json:"kind"`
		Cell  int    `json:"cell"`
		Digit int    `json:"digit"`
	}
	got := decode[struct {
		Steps     []step `json:"steps"`
		Truncated *bool  `json:"truncated"`
	}](t, rec)
	if got.Truncated == nil || *got.Truncated != wantTruncated {
		t.Errorf("truncated %v, want %v", got.Truncated, wantTruncated)
	}
	if len(got.Steps) != len(wantSteps) {
		t.Fatalf("%d steps, want %d", len(got.Steps), len(wantSteps))
	}
	for i, st := range got.Steps {
		w := wantSteps[i]
		if st != (step{Kind: w.Kind.String(), Cell: int(w.Cell), Digit: int(w.Digit)}) {
			t.Fatalf("step %d = %+v, want %v %d %d", i, st, w.Kind, w.Cell, w.Digit)
		}
		if st.Cell < 0 || st.Cell > 80 || st.Digit < 1 || st.Digit > 9 {
			t.Fatalf("step %d out of range: %+v", i, st)
		}
	}
}

// TestConcurrentSubmissions posts distinct and repeated puzzles from many
// goroutines at once; run with -race. Every puzzle is archived once and
// counted exactly.
func TestConcurrentSubmissions(t *testing.T) {
	s, f := newTestServer(t, Config{})
	const workers, each, distinct = 16, 12, 10
	errs := make(chan error, workers*each)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range each {
				rec := post(t, s, "/api/puzzles", puzzleBody(relabel(easy, (w*each+i)%distinct)))
				if rec.Code != http.StatusCreated && rec.Code != http.StatusOK {
					errs <- fmt.Errorf("worker %d: status %d, body %s", w, rec.Code, rec.Body)
				}
			}
		}()
	}
	for range workers {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(f.puzzles) != distinct {
		t.Fatalf("archive holds %d puzzles, want %d", len(f.puzzles), distinct)
	}
	var total int64
	for _, p := range f.puzzles {
		total += p.Submissions
	}
	if total != workers*each {
		t.Errorf("submissions add up to %d, want %d", total, workers*each)
	}
	ids := make(map[string]bool)
	for _, p := range f.puzzles {
		ids[strconv.FormatInt(p.ID, 10)] = true
	}
	if len(ids) != distinct {
		t.Errorf("%d distinct ids for %d puzzles", len(ids), distinct)
	}
}
