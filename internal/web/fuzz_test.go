package web

import (
	"net/http"
	"testing"
)

// FuzzSubmitJSON sends arbitrary bodies to POST /api/puzzles and
// POST /api/solve: whatever arrives, the answer is a 2xx or 4xx with a JSON
// body, never a 5xx or a panic.
func FuzzSubmitJSON(f *testing.F) {
	for _, seed := range []string{
		puzzleBody(easy),
		puzzleBody(conflict),
		puzzleBody(noSolution),
		puzzleBody(empty),
		gridJSON(nil),
		gridJSON(map[[2]int]string{{0, 0}: "5", {0, 1}: "5"}),
		`{"puzzle": "` + easy + `", "grid": [[0]]}`,
		`{"grid": [[1,2,3]]}`,
		`{"puzzle": "\u0000"}`,
		"{\"puzzle\": \"\xff\"}",
		`{}`, `[]`, `null`, `"x"`, `{"puzzle": 1e400}`, `{"grid": [[1e400]]}`,
	} {
		f.Add(seed)
	}
	s, _ := newTestServer(f, Config{})
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/api/puzzles", "/api/solve"} {
			rec := do(t, s, request{method: http.MethodPost, path: path, body: body})
			if rec.Code >= 500 {
				t.Fatalf("%s answered %d to %q: %s", path, rec.Code, body, rec.Body)
			}
			if rec.Code >= 400 {
				if msg := decode[apiErr](t, rec).Error; msg == "" {
					t.Fatalf("%s answered %d with no error message to %q", path, rec.Code, body)
				}
			}
		}
	})
}
