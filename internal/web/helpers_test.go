package web

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Puzzles used across the handler tests.
const (
	// easy is Norvig's first easy puzzle: unique, uses all nine digits.
	easy         = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
	easySolution = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
	// empty has no givens: many solutions.
	empty = "................................................................................."
	// noSolution has no two equal givens in a unit, yet cell 8 can hold
	// nothing: its row has 1-8 and its column a 9.
	noSolution = "12345678.........9..............................................................."
	// conflict has two 5s in row 1 (cells 0 and 4).
	conflict = "5...5............................................................................"
)

// quiet is the logger of test servers: request logs would drown the
// test output.
var quiet = slog.New(slog.DiscardHandler)

// newTestServer returns a server over an empty fakeArchive, logging nowhere.
func newTestServer(t testing.TB, cfg Config) (*Server, *fakeArchive) {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	f := &fakeArchive{}
	return New(partsOf(f), cfg), f
}

// request is one request to send through the real router.
type request struct {
	method, path string
	body         string
	contentType  string // "" means application/json when there is a body
	remoteAddr   string
	header       http.Header
}

// do sends r through s and returns the recorded response.
func do(t testing.TB, s *Server, r request) *httptest.ResponseRecorder {
	t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req := httptest.NewRequest(r.method, r.path, body)
	if r.body != "" {
		ct := r.contentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	} else if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.remoteAddr != "" {
		req.RemoteAddr = r.remoteAddr
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	checkAPIResponse(t, req, rec.Code, rec.Header(), rec.Body.Bytes())
	return rec
}

// post sends a JSON body to path.
func post(t testing.TB, s *Server, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, s, request{method: http.MethodPost, path: path, body: body})
}

// get sends a GET to path.
func get(t testing.TB, s *Server, path string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, s, request{method: http.MethodGet, path: path})
}

// puzzleBody is the JSON body {"puzzle": p}.
func puzzleBody(p string) string {
	b, _ := json.Marshal(map[string]string{"puzzle": p})
	return string(b)
}

// decode unmarshals a JSON response into a value of type T, failing the
// test if the response is not JSON.
func decode[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q, want application/json; body %s", ct, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %s: %v", rec.Body, err)
	}
	return v
}

// apiErr is an API error body as a client sees it.
type apiErr struct {
	Error    string `json:"error"`
	Position int    `json:"position"`
	Cells    []int  `json:"cells"`
}

// relabel returns p with its digits renamed by the n-th permutation of 1-9
// (0 <= n < 9!): a different puzzle, exactly as hard. It gives tests and
// benchmarks as many distinct valid puzzles as they need.
func relabel(p string, n int) string {
	digits := []byte("123456789")
	var perm [10]byte
	for i := 9; i >= 1; i-- { // Lehmer code: n picks one of the remaining digits per place
		k := n % i
		n /= i
		perm[10-i] = digits[k]
		digits = append(digits[:k], digits[k+1:]...)
	}
	b := []byte(p)
	for i, c := range b {
		if c >= '1' && c <= '9' {
			b[i] = perm[c-'0']
		}
	}
	return string(b)
}

// httptestRequest is a request with a JSON body, for tests that adjust it
// before sending it with serve.
func httptestRequest(method, path, body string) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// serve sends req through s.
func serve(s *Server, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}
